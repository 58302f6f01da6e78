/* Seed recovery with lanes of seeds in lock step (SIMD), the vector reference of bench/bench_seed_search.py.
 * Same arguments and output as crack_filter.c:
 *
 *   crack_simd poker1999 FIRST COUNT CARD...   Delphi Random(51), 1999 exchange shuffle
 *   crack_simd msvc      FIRST COUNT CARD...   MSVC rand() % (i + 1), Fisher-Yates
 *
 * GCC vector extensions, LANES 32-bit lanes (16 with -mavx512f -DLANES=16, 8 with -mavx2 -DLANES=8):
 * one vector holds the states of LANES consecutive seeds, stepped together.
 *   poker1999: one card followed to the end; Random(51) = (x * 51) >> 32 from two 16-bit halves.
 *   msvc: every seen card followed; j = v % (i + 1) by a float reciprocal, corrected exactly
 *     (v < 2^15: the float quotient is off by one at most); a lane is rejected at the first final
 *     position that misfits, and the block is abandoned when every lane is rejected.
 * The survivors are checked on a whole deck, as in crack_filter.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef LANES
#define LANES 16
#endif
#define DECK 52

typedef uint32_t vu __attribute__((vector_size(4 * LANES)));
typedef int32_t vi __attribute__((vector_size(4 * LANES)));
typedef float vf __attribute__((vector_size(4 * LANES)));

static void shuffle_deck(uint32_t x, int poker, int *deck) {
    for (int i = 0; i < DECK; i++) deck[i] = i;
    if (poker) {
        for (int i = 0; i < DECK; i++) {
            x = x * 134775813u + 1u;
            int j = (int)(((uint64_t)x * 51u) >> 32), t = deck[i]; deck[i] = deck[j]; deck[j] = t;
        }
        return;
    }
    for (int i = DECK - 1; i > 0; i--) {
        x = x * 214013u + 2531011u;
        int j = (int)((x >> 16) & 0x7fff) % (i + 1), t = deck[i]; deck[i] = deck[j]; deck[j] = t;
    }
}

static void check(uint32_t s, int poker, const int *seen, int k) {
    int deck[DECK], q = 0;
    shuffle_deck(s, poker, deck);
    while (q < k && deck[q] == seen[q]) q++;
    if (q == k) printf("%u\n", s);
}

/* Lane by lane: a where the mask m is set (-1), else b. */
static vi sel(vi m, vi a, vi b) { return (a & m) | (b & ~m); }

static vi lanes_from(uint64_t s) {
    vi x;
    for (int l = 0; l < LANES; l++) x[l] = (int32_t)(uint32_t)(s + l);
    return x;
}

/* poker1999: lane l is a hit where card `card` ends at position 0. */
static vi filter_poker1999(uint64_t s, int card) {
    vu x = (vu)lanes_from(s);
    vi k = (vi){0} + card;
    for (int i = 0; i < DECK; i++) {
        x = x * 134775813u + 1u;
        vi j = (vi)((((x >> 16) * 51u) + (((x & 0xffffu) * 51u) >> 16)) >> 16);
        k = sel(k == i, j, sel(k == j, (vi){0} + i, k));
    }
    return k == 0;
}

/* msvc: lane l survives the filter where every followed card fits every final position. */
static vi filter_msvc(uint64_t s, const int *seen, int cards) {
    vu x = (vu)lanes_from(s);
    vi tracked[DECK], alive = (vi){0} - 1;
    for (int q = 0; q < cards; q++) tracked[q] = (vi){0} + seen[q];
    for (int i = DECK - 1; i > 0; i--) {
        x = x * 214013u + 2531011u;
        vi v = (vi)((x >> 16) & 0x7fffu);
        vi q = __builtin_convertvector(__builtin_convertvector(v, vf) * (1.0f / (float)(i + 1)), vi);
        vi j = v - q * (i + 1);
        j = sel(j >= i + 1, j - (i + 1), j);
        j = sel(j < 0, j + (i + 1), j);
        for (int c = 0; c < cards; c++) {
            vi t = tracked[c];
            t = sel(t == i, j, sel(t == j, (vi){0} + i, t));
            tracked[c] = t;
            alive &= (t == i) == ((vi){0} - (c == i));
        }
        int any = 0;
        for (int l = 0; l < LANES; l++) any |= alive[l];
        if (!any) return alive;
    }
    for (int c = 0; c < cards; c++) alive &= tracked[c] == c;
    return alive;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s poker1999|msvc FIRST COUNT CARD...\n", argv[0]);
        return 2;
    }
    int poker = strcmp(argv[1], "msvc") != 0, k = argc - 4, seen[DECK];
    uint64_t first = strtoull(argv[2], NULL, 0), count = strtoull(argv[3], NULL, 0), stop = first + count;
    for (int q = 0; q < k; q++) seen[q] = atoi(argv[4 + q]);
    for (uint64_t s = first; s < stop; s += LANES) {
        vi hit = poker ? filter_poker1999(s, seen[0]) : filter_msvc(s, seen, k);
        for (int l = 0; l < LANES && s + l < stop; l++) if (hit[l]) check((uint32_t)(s + l), poker, seen, k);
    }
    printf("searched %llu\n", (unsigned long long)count);
    return 0;
}
