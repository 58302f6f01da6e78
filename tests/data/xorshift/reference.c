/* Reference outputs of Marsaglia's xorshift generators, Vigna's xoroshiro128 and xoshiro256, and WELL512a,
 * written for rnglab from the published algorithms (Marsaglia, "Xorshift RNGs", J. Stat. Soft. 8(14), 2003;
 * Blackman and Vigna's reference code at prng.di.unimi.it; Panneton, L'Ecuyer and Matsumoto, WELL512a.c).
 *
 *   reference NAME COUNT text    first COUNT outputs in decimal, one per line
 *   reference NAME COUNT binary  COUNT outputs as little-endian 64-bit words (for sha256sum)
 *
 * States: Marsaglia's generators start from the paper's static initialisers; Vigna's generators and WELL512a
 * from SplitMix64(0) (WELL512a: the low 32 bits of each of its first 16 outputs), rnglab's seeding rule. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t sm_x = 0;
static uint64_t splitmix64(void) {
    uint64_t z = (sm_x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static inline uint64_t rotl(const uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint32_t y32 = 2463534242u;
static uint64_t xor32(void) { y32 ^= (y32 << 13); y32 ^= (y32 >> 17); return (y32 ^= (y32 << 5)); }

static uint64_t x64 = 88172645463325252ULL;
static uint64_t xor64(void) { x64 ^= (x64 << 13); x64 ^= (x64 >> 7); return (x64 ^= (x64 << 17)); }

static uint32_t x = 123456789, y = 362436069, z = 521288629, w = 88675123;
static uint64_t xor128(void) {
    uint32_t t = (x ^ (x << 11)); x = y; y = z; z = w;
    return (w = (w ^ (w >> 19)) ^ (t ^ (t >> 8)));
}

static uint64_t s2[2];
static uint64_t xoroshiro128plus(void) {
    const uint64_t s0 = s2[0]; uint64_t s1 = s2[1]; const uint64_t result = s0 + s1;
    s1 ^= s0; s2[0] = rotl(s0, 24) ^ s1 ^ (s1 << 16); s2[1] = rotl(s1, 37);
    return result;
}
static uint64_t xoroshiro128plusplus(void) {
    const uint64_t s0 = s2[0]; uint64_t s1 = s2[1]; const uint64_t result = rotl(s0 + s1, 17) + s0;
    s1 ^= s0; s2[0] = rotl(s0, 49) ^ s1 ^ (s1 << 21); s2[1] = rotl(s1, 28);
    return result;
}
static uint64_t xoroshiro128starstar(void) {
    const uint64_t s0 = s2[0]; uint64_t s1 = s2[1]; const uint64_t result = rotl(s0 * 5, 7) * 9;
    s1 ^= s0; s2[0] = rotl(s0, 24) ^ s1 ^ (s1 << 16); s2[1] = rotl(s1, 37);
    return result;
}

static uint64_t s4[4];
static void xoshiro256_step(void) {
    const uint64_t t = s4[1] << 17;
    s4[2] ^= s4[0]; s4[3] ^= s4[1]; s4[1] ^= s4[2]; s4[0] ^= s4[3]; s4[2] ^= t; s4[3] = rotl(s4[3], 45);
}
static uint64_t xoshiro256plus(void) { const uint64_t r = s4[0] + s4[3]; xoshiro256_step(); return r; }
static uint64_t xoshiro256starstar(void) { const uint64_t r = rotl(s4[1] * 5, 7) * 9; xoshiro256_step(); return r; }

static uint32_t state_i = 0, STATE[16];
#define V0 STATE[state_i]
#define VM1 STATE[(state_i + 13) & 15]
#define VM2 STATE[(state_i + 9) & 15]
#define VRm1 STATE[(state_i + 15) & 15]
static uint64_t well512a(void) {
    uint32_t z0 = VRm1, z1 = (V0 ^ (V0 << 16)) ^ (VM1 ^ (VM1 << 15)), z2 = VM2 ^ (VM2 >> 11);
    uint32_t v1 = z1 ^ z2;
    STATE[state_i] = v1;
    STATE[(state_i + 15) & 15] = (z0 ^ (z0 << 2)) ^ (z1 ^ (z1 << 18)) ^ (z2 << 28) ^ (v1 ^ ((v1 << 5) & 0xda442d24u));
    state_i = (state_i + 15) & 15;
    return STATE[state_i];
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: reference NAME COUNT text|binary\n"); return 2; }
    uint64_t (*next)(void) = NULL;
    const char *name = argv[1];
    s2[0] = splitmix64(); s2[1] = splitmix64();
    sm_x = 0; for (int i = 0; i < 4; i++) s4[i] = splitmix64();
    sm_x = 0; for (int i = 0; i < 16; i++) STATE[i] = (uint32_t)splitmix64();
    if (!strcmp(name, "xorshift32")) next = xor32;
    else if (!strcmp(name, "xorshift64")) next = xor64;
    else if (!strcmp(name, "xorshift128")) next = xor128;
    else if (!strcmp(name, "xoroshiro128+")) next = xoroshiro128plus;
    else if (!strcmp(name, "xoroshiro128++")) next = xoroshiro128plusplus;
    else if (!strcmp(name, "xoroshiro128**")) next = xoroshiro128starstar;
    else if (!strcmp(name, "xoshiro256+")) next = xoshiro256plus;
    else if (!strcmp(name, "xoshiro256**")) next = xoshiro256starstar;
    else if (!strcmp(name, "well512a")) next = well512a;
    else { fprintf(stderr, "unknown generator %s\n", name); return 2; }
    long count = atol(argv[2]);
    int binary = !strcmp(argv[3], "binary");
    for (long k = 0; k < count; k++) {
        uint64_t v = next();
        if (binary) fwrite(&v, 8, 1, stdout); else printf("%llu\n", (unsigned long long)v);
    }
    return 0;
}
