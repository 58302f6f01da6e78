/* Seed recovery with rnglab's own algorithm (rnglab/recovery/search_kernels.py), in C: the same-algorithm
 * reference of bench/bench_crack.py, single thread, compiled with cc -O2, the generators' constants
 * written in (as a C programmer attacking one program would). Same arguments as crack_brute.c:
 *
 *   crack_filter poker1999 FIRST COUNT CARD...   Delphi Random(51), 1999 exchange shuffle
 *   crack_filter msvc      FIRST COUNT CARD...   MSVC rand() % (i + 1), Fisher-Yates
 *
 * Stage 1 (filter) follows observed cards only, no deck written:
 *   poker1999: one card (the first seen), 4 seeds at a time (independent multiplication chains), kept
 *     where it ends at its observed position (the shuffle makes no position final before the end);
 *   msvc: every seen card; position i is final after step i, and a seed is rejected at the first final
 *     position that holds a followed card that does not belong there, or misses the card seen there.
 * Stage 2 (check): the survivors shuffle a whole deck and compare every seen card.
 * Prints every matching seed and the number of seeds searched.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DECK 52
#define LANES 4

static uint32_t delphi(uint32_t x) { return x * 134775813u + 1u; }
static int random51(uint32_t x) { return (int)(((uint64_t)x * 51u) >> 32); }
static uint32_t msvc(uint32_t x) { return x * 214013u + 2531011u; }
static int swapped(int k, int i, int j) { return k == i ? j : (k == j ? i : k); }

static void shuffle_poker1999(uint32_t x, int *deck) {
    for (int i = 0; i < DECK; i++) deck[i] = i;
    for (int i = 0; i < DECK; i++) {
        x = delphi(x);
        int j = random51(x), t = deck[i]; deck[i] = deck[j]; deck[j] = t;
    }
}

static void shuffle_msvc(uint32_t x, int *deck) {
    for (int i = 0; i < DECK; i++) deck[i] = i;
    for (int i = DECK - 1; i > 0; i--) {
        x = msvc(x);
        int j = (int)((x >> 16) & 0x7fff) % (i + 1), t = deck[i]; deck[i] = deck[j]; deck[j] = t;
    }
}

/* Stage 1, poker1999: hit[l] = 1 where card `card` ends at position 0, for seeds s .. s + 3. */
static void filter_poker1999(uint64_t s, int card, int *hit) {
    uint32_t x[LANES];
    int k[LANES];
    for (int l = 0; l < LANES; l++) { x[l] = (uint32_t)(s + l); k[l] = card; }
    for (int i = 0; i < DECK; i++)
        for (int l = 0; l < LANES; l++) { x[l] = delphi(x[l]); k[l] = swapped(k[l], i, random51(x[l])); }
    for (int l = 0; l < LANES; l++) hit[l] = k[l] == 0;
}

/* Stage 1, msvc: follow the k seen cards (seen at positions 0 .. k-1) with early rejection. */
static int filter_msvc(uint32_t x, const int *seen, int k) {
    int tracked[DECK];
    for (int q = 0; q < k; q++) tracked[q] = seen[q];
    for (int i = DECK - 1; i > 0; i--) {
        x = msvc(x);
        int j = (int)((x >> 16) & 0x7fff) % (i + 1);
        for (int q = 0; q < k; q++) {
            if (tracked[q] == i) tracked[q] = j; else if (tracked[q] == j) tracked[q] = i;
            if ((tracked[q] == i) != (q == i)) return 0;
        }
    }
    for (int q = 0; q < k; q++) if (tracked[q] != q) return 0;
    return 1;
}

static void check(uint64_t s, int poker, const int *seen, int k) {
    int deck[DECK], q = 0;
    (poker ? shuffle_poker1999 : shuffle_msvc)((uint32_t)s, deck);
    while (q < k && deck[q] == seen[q]) q++;
    if (q == k) printf("%llu\n", (unsigned long long)s);
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s poker1999|msvc FIRST COUNT CARD...\n", argv[0]);
        return 2;
    }
    int poker = strcmp(argv[1], "msvc") != 0, k = argc - 4, seen[DECK], hit[LANES];
    uint64_t first = strtoull(argv[2], NULL, 0), count = strtoull(argv[3], NULL, 0), stop = first + count;
    for (int q = 0; q < k; q++) seen[q] = atoi(argv[4 + q]);
    for (uint64_t s = first; s < stop; s += poker ? LANES : 1) {
        if (!poker) {
            if (filter_msvc((uint32_t)s, seen, k)) check(s, 0, seen, k);
            continue;
        }
        filter_poker1999(s, seen[0], hit);
        for (int l = 0; l < LANES && s + l < stop; l++) if (hit[l]) check(s + l, 1, seen, k);
    }
    printf("searched %llu\n", (unsigned long long)count);
    return 0;
}
