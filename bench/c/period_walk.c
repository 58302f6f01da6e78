/* Reference for bench_period.py: walk an LCG's cycle until its state repeats.
 * usage: period_walk serial|lanes A C M SEED [LIMIT]
 * Both modes step s = bit_length(M) times first (past any tail, as rnglab's walk does), then count
 * the steps until that state comes back, and print "period steps seconds" (period 0 when the
 * serial walk stops at LIMIT steps first: its rate is what the benchmark compares).
 *   serial: the plain loop a C programmer writes, x = (a x + c) % m (or & (m-1) for m = 2^e);
 *   lanes:  rnglab's algorithm (rnglab/walk.py): 64 lanes placed by jump-ahead on consecutive
 *           blocks, stepped together, with the floating-point quotient estimate for m <= 2^32.
 * a, c, m are read at run time, so the compiler cannot specialise the modulus. M <= 2^32.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LANES 64
#define MAX_BLOCK (1u << 20)

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static uint64_t a, c, m, mask;
static int power_of_two;

static uint64_t step(uint64_t x) { return power_of_two ? (a * x + c) & mask : (a * x + c) % m; }

/* x advanced k steps: binary powering of the affine map (A, C), exact with 128-bit products. */
static uint64_t jump(uint64_t x, uint64_t k) {
    unsigned __int128 ra = 1, rc = 0, sa = a, sc = c;
    while (k) {
        if (k & 1) { ra = ra * sa % m; rc = (sa * rc + sc) % m; }
        sc = (sa * sc + sc) % m; sa = sa * sa % m;
        k >>= 1;
    }
    return (uint64_t)((ra * x + rc) % m);
}

static uint64_t serial(uint64_t start, uint64_t limit, uint64_t *steps) {
    uint64_t x = step(start), n = 1;
    while (x != start && n < limit) { x = step(x); n++; }
    *steps = n;
    return x == start ? n : 0;
}

/* One round: every lane steps `block` times; returns the first hit offset or 0. */
static uint64_t round_of_lanes(uint64_t *lane, uint64_t target, uint64_t block) {
    int64_t hit[LANES];
    double inverse = 1.0 / (double)m;
    int64_t modulus = (int64_t)m;
    for (int i = 0; i < LANES; i++) hit[i] = -1;
    for (uint64_t k = 1; k <= block; k++) {
        int met = 0;
        for (int i = 0; i < LANES; i++) {
            uint64_t p = lane[i] * a + c, x;
            if (power_of_two) {
                x = p & mask;
            } else {
                uint64_t q = (uint64_t)((double)p * inverse);
                int64_t r = (int64_t)(p - q * m);
                if (r < 0) r += modulus; else if (r >= modulus) r -= modulus;
                x = (uint64_t)r;
            }
            lane[i] = x;
            met |= x == target;
        }
        if (met)
            for (int i = 0; i < LANES; i++)
                if (lane[i] == target && hit[i] < 0) hit[i] = (int64_t)k;
    }
    for (int i = 0; i < LANES; i++)
        if (hit[i] >= 0) return (uint64_t)i * block + (uint64_t)hit[i];
    return 0;
}

static uint64_t lanes(uint64_t start, uint64_t *steps) {
    uint64_t front = start, offset = 0, block = 1, lane[LANES];
    *steps = 0;
    for (;;) {
        for (int i = 0; i < LANES; i++) lane[i] = jump(front, (uint64_t)i * block);
        uint64_t found = round_of_lanes(lane, start, block);
        *steps += LANES * block;
        if (found) return offset + found;
        front = jump(front, LANES * block);
        offset += LANES * block;
        if (block < MAX_BLOCK) block *= 2;
    }
}

int main(int argc, char **argv) {
    if (argc != 6 && argc != 7) { fprintf(stderr, "usage: period_walk serial|lanes A C M SEED [LIMIT]\n"); return 2; }
    a = strtoull(argv[2], 0, 0); c = strtoull(argv[3], 0, 0); m = strtoull(argv[4], 0, 0);
    uint64_t x = strtoull(argv[5], 0, 0), limit = argc == 7 ? strtoull(argv[6], 0, 0) : UINT64_MAX, period, steps;
    power_of_two = (m & (m - 1)) == 0;
    mask = m - 1;
    for (uint64_t bits = m; bits; bits >>= 1) x = step(x);
    double began = now();
    if (strcmp(argv[1], "serial") == 0) period = serial(x, limit, &steps);
    else period = lanes(x, &steps);
    printf("%llu %llu %.6f\n", (unsigned long long)period, (unsigned long long)steps, now() - began);
    return 0;
}
