/* Defective (and a few good) generators of issue #30, written for rnglab's benchmarks: each writes
 * little-endian 32-bit words to standard output until BYTES have been written (or forever, BYTES = 0), so
 * that the same bytes can be piped to rnglab, PractRand (RNG_test stdin32) and TestU01.
 *
 *   cc -O2 -o defective_streams defective_streams.c
 *   ./defective_streams KIND [BYTES [SEED]] | rnglab test - --format u32
 *
 * KIND (the first five are item 1 of the issue: smoke passed them, PractRand fails them within 16 MiB):
 *   xorshift64-low     xorshift64 (13, 7, 17; Marsaglia 2003), the low 32 bits of each state
 *   lcg48-mid          the 48-bit LCG of drand48 (a = 0x5DEECE66D, c = 11), bits 16..47 of each state
 *   lfib-add-24-55     additive lagged Fibonacci x[n] = x[n-24] + x[n-55] mod 2^32 (Knuth, TAOCP 3.2.2)
 *   xorshift128p-low   xorshift128+ (23, 17, 26; Vigna 2017), the low 32 bits of each output
 *   lcg32-top16-pairs  the 32-bit LCG of Numerical Recipes (a = 1664525, c = 1013904223), its top 16 bits,
 *                      two to a word (the first in the low half)
 * and, for comparison:
 *   xorshift32         xorshift32 (13, 17, 5; Marsaglia 2003), the whole state
 *   lcg32              the Numerical Recipes LCG, the whole state
 *   lcg64-low          Knuth's MMIX LCG (a = 6364136223846793005, c = 1442695040888963407), low 32 bits
 *   weyl-hash          a counter times the golden ratio 0x9E3779B9, xor its top 16 bits into the low (a weak hash)
 *   lcg128-top         a 128-bit LCG (a = 0x2360ED051FC65DA44385DF649FCCF645, c = 1), its top 32 bits: good
 *
 * States are seeded from SEED (default 1) through SplitMix64 (Steele, Lea and Flood 2014), never zero.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t splitmix_state;

static uint64_t splitmix64(void) {
    uint64_t z = (splitmix_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t nonzero(void) {
    uint64_t value;
    do { value = splitmix64(); } while (value == 0);
    return value;
}

static uint64_t x64, s0, s1, lcg48, lcg64;
static uint32_t x32, lcg32, weyl, lag[55];
static int lag_index;
static unsigned __int128 lcg128;

static uint32_t xorshift64_low(void) {
    x64 ^= x64 << 13; x64 ^= x64 >> 7; x64 ^= x64 << 17;
    return (uint32_t)x64;
}

static uint32_t lcg48_mid(void) {
    lcg48 = (0x5DEECE66DULL * lcg48 + 11) & ((1ULL << 48) - 1);
    return (uint32_t)(lcg48 >> 16);
}

static uint32_t lfib_add_24_55(void) {
    /* lag[lag_index] holds x[n-55]; x[n-24] is 31 places further round the ring of 55 */
    uint32_t value = lag[lag_index] + lag[(lag_index + 31) % 55];
    lag[lag_index] = value;
    lag_index = (lag_index + 1) % 55;
    return value;
}

static uint32_t xorshift128p_low(void) {
    uint64_t a = s0, b = s1;
    s0 = b;
    a ^= a << 23;
    s1 = a ^ b ^ (a >> 17) ^ (b >> 26);
    return (uint32_t)(s1 + b);
}

static uint32_t lcg32_step(void) {
    lcg32 = 1664525u * lcg32 + 1013904223u;
    return lcg32;
}

static uint32_t lcg32_top16_pairs(void) {
    uint32_t first = lcg32_step() >> 16;
    return first | ((lcg32_step() >> 16) << 16);
}

static uint32_t xorshift32(void) {
    x32 ^= x32 << 13; x32 ^= x32 >> 17; x32 ^= x32 << 5;
    return x32;
}

static uint32_t lcg64_low(void) {
    lcg64 = 6364136223846793005ULL * lcg64 + 1442695040888963407ULL;
    return (uint32_t)lcg64;
}

static uint32_t weyl_hash(void) {
    weyl += 0x9E3779B9u;
    return weyl ^ (weyl >> 16);
}

static uint32_t lcg128_top(void) {
    const unsigned __int128 a = ((unsigned __int128)0x2360ED051FC65DA4ULL << 64) | 0x4385DF649FCCF645ULL;
    lcg128 = a * lcg128 + 1;
    return (uint32_t)(lcg128 >> 96);
}

static const struct { const char *name; uint32_t (*next)(void); } KINDS[] = {
    {"xorshift64-low", xorshift64_low}, {"lcg48-mid", lcg48_mid}, {"lfib-add-24-55", lfib_add_24_55},
    {"xorshift128p-low", xorshift128p_low}, {"lcg32-top16-pairs", lcg32_top16_pairs},
    {"xorshift32", xorshift32}, {"lcg32", lcg32_step}, {"lcg64-low", lcg64_low}, {"weyl-hash", weyl_hash},
    {"lcg128-top", lcg128_top},
};

int main(int argc, char **argv) {
    size_t kinds = sizeof KINDS / sizeof KINDS[0], kind;
    if (argc < 2) {
        fprintf(stderr, "usage: %s KIND [BYTES [SEED]]\n", argv[0]);
        return 2;
    }
    for (kind = 0; kind < kinds && strcmp(KINDS[kind].name, argv[1]) != 0; kind++) {}
    if (kind == kinds) {
        fprintf(stderr, "unknown kind %s\n", argv[1]);
        return 2;
    }
    unsigned long long bytes = argc > 2 ? strtoull(argv[2], NULL, 0) : 0;
    splitmix_state = argc > 3 ? strtoull(argv[3], NULL, 0) : 1;
    x64 = nonzero(); s0 = nonzero(); s1 = nonzero(); lcg48 = splitmix64(); lcg64 = splitmix64();
    x32 = (uint32_t)nonzero() | 1u; lcg32 = (uint32_t)splitmix64(); weyl = (uint32_t)splitmix64();
    lcg128 = ((unsigned __int128)splitmix64() << 64) | splitmix64();
    for (int i = 0; i < 55; i++) lag[i] = (uint32_t)splitmix64();
    lag[0] |= 1u; /* an odd word among the lags: the sequence's low bit is not all zero */

    static uint32_t buffer[4096];
    unsigned long long written = 0;
    for (;;) {
        for (int i = 0; i < 4096; i++) {
            uint32_t w = KINDS[kind].next();
            unsigned char *p = (unsigned char *)&buffer[i];
            p[0] = (unsigned char)w; p[1] = (unsigned char)(w >> 8);
            p[2] = (unsigned char)(w >> 16); p[3] = (unsigned char)(w >> 24);
        }
        size_t chunk = sizeof buffer;
        if (bytes && bytes - written < chunk) chunk = (size_t)(bytes - written);
        if (fwrite(buffer, 1, chunk, stdout) != chunk) return 0; /* the reader went away */
        written += chunk;
        if (bytes && written >= bytes) return 0;
    }
}
