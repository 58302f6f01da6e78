/* Reference for bench_generators.py: fill a buffer with LCG outputs in a plain loop.
 * usage: lcg_stream KIND A C M CHUNK CHUNKS FRESH [LANES]   (KIND = msvc | minstd | wide; LANES = 1 or 8)
 * Fills CHUNKS buffers of CHUNK values; FRESH = 1 allocates (and so first-touches) a new buffer
 * for every chunk, as a function returning a new array must; FRESH = 0 reuses one buffer.
 * Prints the best time in seconds over 5 repetitions, and a checksum.
 * a, c, m are read at run time (argv), as rnglab reads them, so the compiler cannot
 * specialise the modulus; MSVC's m = 2^32 is the natural uint32_t wrap-around; "wide" is any
 * m < 2^64 with an exact 128-bit product and remainder (unsigned __int128, gcc's __umodti3).
 * LANES = 8 runs eight independent lanes (lane j holds x_{k+j}, each advanced by the jump x -> A^8 x + C_8),
 * so the eight chains overlap in the processor as rnglab's rows of lanes do; the values written are the
 * same sequence.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);  /* CPU time: the machine is shared */
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

#define LANES 8

static uint64_t step(int msvc, uint64_t x, uint64_t a, uint64_t c, uint64_t m) {
    if (msvc) return (uint32_t)((uint32_t)x * (uint32_t)a + (uint32_t)c);
    return (uint64_t)(((unsigned __int128)a * x + c) % m);
}

/* The lanes of a run: v[j] = the next state of lane j, and the jump (A, C) = the map x -> a x + c applied LANES
 * times. start_lanes sets v[j] = x_{j+1} from the seed x_0. */
static void start_lanes(int msvc, uint64_t x, uint64_t a, uint64_t c, uint64_t m, uint64_t *v, uint64_t *jump) {
    jump[0] = 1;
    jump[1] = 0;
    for (int j = 0; j < LANES; j++) {
        jump[0] = step(msvc, jump[0], a, 0, m);
        jump[1] = step(msvc, jump[1], a, c, m);
        x = step(msvc, x, a, c, m);
        v[j] = x;
    }
}

/* COUNT (a multiple of LANES) values: lane j writes every LANES-th value, so out holds x_1, x_2, ... in order. */
static uint64_t fill_lanes(int msvc, int wide, uint64_t *v, const uint64_t *jump, uint64_t m, uint64_t *out,
                           size_t count) {
    uint64_t A = jump[0], C = jump[1];
    if (msvc) {
        uint32_t s[LANES];
        for (int j = 0; j < LANES; j++) s[j] = (uint32_t)v[j];
        for (size_t i = 0; i < count; i += LANES)
            for (int j = 0; j < LANES; j++) { out[i + j] = (s[j] >> 16) & 0x7fff; s[j] = s[j] * (uint32_t)A + (uint32_t)C; }
        for (int j = 0; j < LANES; j++) v[j] = s[j];
    } else if (wide) {
        for (size_t i = 0; i < count; i += LANES)
            for (int j = 0; j < LANES; j++) {
                out[i + j] = v[j];
                v[j] = (uint64_t)(((unsigned __int128)A * v[j] + C) % m);
            }
    } else {
        for (size_t i = 0; i < count; i += LANES)
            for (int j = 0; j < LANES; j++) { out[i + j] = v[j]; v[j] = (A * v[j] + C) % m; }
    }
    return out[count - 1];
}

int main(int argc, char **argv) {
    if (argc != 8 && argc != 9) {
        fprintf(stderr, "usage: lcg_stream msvc|minstd|wide A C M CHUNK CHUNKS FRESH [LANES]\n");
        return 2;
    }
    int msvc = strcmp(argv[1], "msvc") == 0, wide = strcmp(argv[1], "wide") == 0, fresh = atoi(argv[7]);
    int lanes = argc == 9 ? atoi(argv[8]) : 1;
    uint64_t a = strtoull(argv[2], 0, 0), c = strtoull(argv[3], 0, 0), m = strtoull(argv[4], 0, 0);
    size_t chunk = strtoull(argv[5], 0, 0), chunks = strtoull(argv[6], 0, 0);
    uint64_t *reused = malloc(chunk * sizeof *reused);
    double best = 1e30;
    uint64_t sum = 0;
    for (int r = 0; r < 5; r++) {
        uint64_t x = 1, v[LANES], jump[2];
        start_lanes(msvc, x, a, c, m, v, jump);
        double start = now();
        for (size_t k = 0; k < chunks; k++) {
            uint64_t *out = fresh ? malloc(chunk * sizeof *out) : reused;
            sum += lanes == LANES ? fill_lanes(msvc, wide, v, jump, m, out, chunk) : fill(msvc, wide, &x, a, c, m, out, chunk);
            if (fresh) free(out);
        }
        double elapsed = now() - start;
        if (elapsed < best) best = elapsed;
    }
    printf("%.9f %llu\n", best, (unsigned long long)sum);
    free(reused);
    return 0;
}
