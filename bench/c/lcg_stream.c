/* Reference for bench_generators.py: fill a buffer with LCG outputs in a plain loop.
 * usage: lcg_stream KIND A C M CHUNK CHUNKS FRESH   (KIND = msvc | minstd | wide)
 * Fills CHUNKS buffers of CHUNK values; FRESH = 1 allocates (and so first-touches) a new buffer
 * for every chunk, as a function returning a new array must; FRESH = 0 reuses one buffer.
 * Prints the best time in seconds over 5 repetitions, and a checksum.
 * a, c, m are read at run time (argv), as rnglab reads them, so the compiler cannot
 * specialise the modulus; MSVC's m = 2^32 is the natural uint32_t wrap-around; "wide" is any
 * m < 2^64 with an exact 128-bit product and remainder (unsigned __int128, gcc's __umodti3).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static uint64_t fill(int msvc, int wide, uint64_t *x, uint64_t a, uint64_t c, uint64_t m, uint64_t *out, size_t count) {
    if (msvc) {
        uint32_t s = (uint32_t)*x;
        for (size_t i = 0; i < count; i++) { s = s * (uint32_t)a + (uint32_t)c; out[i] = (s >> 16) & 0x7fff; }
        *x = s;
    } else if (wide) {
        uint64_t v = *x;
        for (size_t i = 0; i < count; i++) { v = (uint64_t)(((unsigned __int128)a * v + c) % m); out[i] = v; }
        *x = v;
    } else {
        uint64_t v = *x;
        for (size_t i = 0; i < count; i++) { v = (a * v + c) % m; out[i] = v; }
        *x = v;
    }
    return out[count - 1];
}

int main(int argc, char **argv) {
    if (argc != 8) { fprintf(stderr, "usage: lcg_stream msvc|minstd|wide A C M CHUNK CHUNKS FRESH\n"); return 2; }
    int msvc = strcmp(argv[1], "msvc") == 0, wide = strcmp(argv[1], "wide") == 0, fresh = atoi(argv[7]);
    uint64_t a = strtoull(argv[2], 0, 0), c = strtoull(argv[3], 0, 0), m = strtoull(argv[4], 0, 0);
    size_t chunk = strtoull(argv[5], 0, 0), chunks = strtoull(argv[6], 0, 0);
    uint64_t *reused = malloc(chunk * sizeof *reused);
    double best = 1e30;
    uint64_t sum = 0;
    for (int r = 0; r < 5; r++) {
        uint64_t x = 1;
        double start = now();
        for (size_t k = 0; k < chunks; k++) {
            uint64_t *out = fresh ? malloc(chunk * sizeof *out) : reused;
            sum += fill(msvc, wide, &x, a, c, m, out, chunk);
            if (fresh) free(out);
        }
        double elapsed = now() - start;
        if (elapsed < best) best = elapsed;
    }
    printf("%.9f %llu\n", best, (unsigned long long)sum);
    free(reused);
    return 0;
}
