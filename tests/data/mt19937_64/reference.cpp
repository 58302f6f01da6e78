// Reference for rnglab's mt19937_64: std::mt19937_64 as libstdc++ runs it after seed(s).
//   reference SEED text    SEED and the first 10 outputs, then the 10000th output
//   reference SEED binary  the first 100000 outputs as little-endian 64-bit words (for sha256sum)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

int main(int argc, char **argv) {
    if (argc != 3) { std::fprintf(stderr, "usage: reference SEED text|binary\n"); return 2; }
    std::mt19937_64 engine;
    engine.seed(std::strtoull(argv[1], nullptr, 10));
    if (!std::strcmp(argv[2], "binary")) {
        for (int k = 0; k < 100000; k++) { std::uint64_t v = engine(); std::fwrite(&v, 8, 1, stdout); }
        return 0;
    }
    std::printf("%s", argv[1]);
    for (int k = 0; k < 10; k++) std::printf(" %llu", (unsigned long long)engine());
    engine.discard(10000 - 11);
    std::printf(" %llu\n", (unsigned long long)engine());
    return 0;
}
