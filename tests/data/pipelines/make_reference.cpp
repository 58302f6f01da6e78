// Reference deals of libstdc++'s std::random_shuffle (rand() % (i + 1) on glibc) and std::shuffle with std::mt19937.
// Build and run with g++ (libstdc++) on glibc:
//     g++ -std=c++11 -O2 -o make_reference_cpp make_reference.cpp && ./make_reference_cpp > reference_cpp.txt
// (std::random_shuffle is deprecated in C++14 and removed in C++17: hence -std=c++11.)
// Each line: pipeline seed n, then the items at positions 0 .. n-1.
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

int main()
{
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
