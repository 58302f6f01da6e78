// std::shuffle with std::mt19937 seeded by std::random_device, as a C++ card server writes it:
//     std::random_device rd; std::mt19937 engine(rd()); std::shuffle(a.begin(), a.end(), engine);
// The seed is the one unsigned int rd() returned (32 bits on g++/Linux); each run prints it with the deal, so the
// deal is pinned to the seed the real program drew.
// Build: g++ -std=c++17 -O2 make_reference_random_device.cpp -o make_reference_random_device
// Run:   ./make_reference_random_device > reference_cpp_random_device.txt
//        ./make_reference_random_device names > names_cpp_random_device.txt
// Each line: "cpp-shuffle-mt19937-random-device SEED N" and the items (0..N-1 shuffled); with `names`, the 52
// cards named "A23456789TJQK"[i % 13] + "cdhs"[i / 13] (rnglab's standard deck), "SEED 52:" and the names.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

static const char *const NAME = "cpp-shuffle-mt19937-random-device";

int main(int argc, char **argv)
{
    std::random_device rd;
    if (argc > 1 && std::strcmp(argv[1], "names") == 0) {
        for (int run = 0; run < 3; run++) {
            std::vector<std::string> deck;
            for (int i = 0; i < 52; i++)
                deck.push_back(std::string(1, "A23456789TJQK"[i % 13]) + "cdhs"[i / 13]);
            const unsigned seed = rd();
            std::mt19937 engine(seed);
            std::shuffle(deck.begin(), deck.end(), engine);
            std::printf("%s %u 52:", NAME, seed);
            for (size_t i = 0; i < deck.size(); i++)
                std::printf("%s %s", i ? "," : "", deck[i].c_str());
            std::printf("\n");
        }
        return 0;
    }
    const int sizes[] = {1, 2, 5, 10, 52};
    for (int run = 0; run < 3; run++) {
        for (int n : sizes) {
            std::vector<int> a(n);
            for (int i = 0; i < n; i++)
                a[i] = i;
            const unsigned seed = rd();
            std::mt19937 engine(seed);
            std::shuffle(a.begin(), a.end(), engine);
            std::printf("%s %u %d", NAME, seed, n);
            for (int v : a)
                std::printf(" %d", v);
            std::printf("\n");
        }
    }
    return 0;
}
