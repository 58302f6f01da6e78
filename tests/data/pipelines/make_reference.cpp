// Reference deals of libstdc++'s std::random_shuffle (rand() % (i + 1) on glibc) and std::shuffle with std::mt19937.
// Build and run with g++ (libstdc++) on glibc:
//     g++ -std=c++11 -O2 -o make_reference_cpp make_reference.cpp && ./make_reference_cpp > reference_cpp.txt
// (std::random_shuffle is deprecated in C++14 and removed in C++17: hence -std=c++11.)
// With the arguments "decks SEED COUNT" (./make_reference_cpp decks 5489 140 > cpp_decks_in_turn.txt): one
// std::mt19937 engine(SEED) deals COUNT decks of 52 in turn, std::shuffle on a fresh 0..51 each time, as a card
// server does round after round; each line "cpp-shuffle-mt19937 SEED 52" and the items.
// Each line: pipeline seed n, then the items at positions 0 .. n-1.
// With the argument "names" (./make_reference_cpp names > names_cpp.txt): 52 cards named "A23456789TJQK"[i % 13]
// then "cdhs"[i / 13] (rnglab's standard deck), shuffled, each line "pipeline seed 52:" and the names, ", " apart.
#include <cstring>
#include <string>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

static void print(const char *name, unsigned seed, const std::vector<int> &a)
{
    std::printf("%s %u %zu", name, seed, a.size());
    for (int v : a) std::printf(" %d", v);
    std::printf("\n");
}

static void print_names(const char *name, unsigned seed, const std::vector<std::string> &a)
{
    std::printf("%s %u %zu:", name, seed, a.size());
    for (std::size_t i = 0; i < a.size(); i++) std::printf("%s %s", i ? "," : "", a[i].c_str());
    std::printf("\n");
}

static int names_main()
{
    const unsigned seeds[] = {1u, 42u, 5489u, 1795341600u};
    std::vector<std::string> deck;
    for (int i = 0; i < 52; i++) deck.push_back(std::string(1, "A23456789TJQK"[i % 13]) + "cdhs"[i / 13]);
    for (unsigned seed : seeds) {
        std::vector<std::string> a = deck;
        std::srand(seed);
        std::random_shuffle(a.begin(), a.end());
        print_names("cpp-random-shuffle", seed, a);
        a = deck;
        std::mt19937 engine(seed);
        std::shuffle(a.begin(), a.end(), engine);
        print_names("cpp-shuffle-mt19937", seed, a);
    }
    return 0;
}

static int decks_main(unsigned seed, int count)
{
    std::mt19937 engine(seed);
    std::vector<int> a(52);
    for (int deck = 0; deck < count; deck++) {
        for (int i = 0; i < 52; i++) a[i] = i;
        std::shuffle(a.begin(), a.end(), engine);
        print("cpp-shuffle-mt19937", seed, a);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && std::strcmp(argv[1], "names") == 0)
        return names_main();
    if (argc > 3 && std::strcmp(argv[1], "decks") == 0)
        return decks_main(std::strtoul(argv[2], nullptr, 10), std::atoi(argv[3]));
    const unsigned seeds[] = {1u, 42u, 5489u, 1795341600u};
    const int sizes[] = {1, 2, 5, 10, 52};
    for (unsigned seed : seeds)
        for (int n : sizes) {
            std::vector<int> a(n);
            for (int i = 0; i < n; i++) a[i] = i;
            std::srand(seed);
            std::random_shuffle(a.begin(), a.end());
            print("cpp-random-shuffle", seed, a);
            for (int i = 0; i < n; i++) a[i] = i;
            std::mt19937 engine(seed);
            std::shuffle(a.begin(), a.end(), engine);
            print("cpp-shuffle-mt19937", seed, a);
        }
    return 0;
}
