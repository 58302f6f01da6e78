/* The C loop that bench_gf2.py measures rnglab's GF(2)-linear generators against: fill one reused buffer of
 * CHUNK 64-bit words CHUNKS times; prints the best seconds over 5 repetitions.
 *   xorshift_stream NAME CHUNK CHUNKS      NAME: xorshift128 | xoshiro256starstar | v8 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    const char *name = argv[1];
    long chunk = atol(argv[2]), chunks = atol(argv[3]);
    uint64_t *out = malloc(8 * chunk), s[4] = {0x9E3779B97F4A7C15ULL, 0xBF58476D1CE4E5B9ULL, 0x94D049BB133111EBULL, 1};
    uint32_t x = 123456789, y = 362436069, z = 521288629, w = 88675123;
    double best = 1e9;
    for (int repeat = 0; repeat < 5; repeat++) {
        double started = now();
        for (long c = 0; c < chunks; c++) {
            if (!strcmp(name, "xorshift128")) {
                for (long k = 0; k < chunk; k++) {
                    uint32_t t = x ^ (x << 11); x = y; y = z; z = w; w = w ^ (w >> 19) ^ t ^ (t >> 8); out[k] = w;
                }
            } else if (!strcmp(name, "xoshiro256starstar")) {
                for (long k = 0; k < chunk; k++) {
                    out[k] = rotl(s[1] * 5, 7) * 9;
                    uint64_t t = s[1] << 17;
                    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
                }
            } else { /* v8: refill 64 forward, hand out last first */
                uint64_t cache[64];
                for (long k = 0; k < chunk; k += 64) {
                    for (int i = 0; i < 64; i++) {
                        uint64_t s1 = s[0], s0 = s[1];
                        s[0] = s0; s1 ^= s1 << 23; s1 ^= s1 >> 17; s1 ^= s0; s1 ^= s0 >> 26; s[1] = s1;
                        cache[i] = s[0] >> 12;
                    }
                    for (int i = 0; i < 64 && k + i < chunk; i++) out[k + i] = cache[63 - i];
                }
            }
        }
        double seconds = now() - started;
        if (seconds < best) best = seconds;
    }
    printf("%.6f %llu\n", best, (unsigned long long)out[chunk - 1]);
    free(out);
    return 0;
}
