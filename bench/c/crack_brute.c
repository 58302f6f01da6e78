/* Brute-force seed recovery, the straightforward way: for every seed, shuffle a
 * whole deck and compare the first k cards. Single thread; the reference that
 * bench/bench_crack.py compiles with cc -O2 and times beside rnglab crack.
 *
 *   crack_brute poker1999 FIRST COUNT CARD...   Delphi Random(51), 1999 exchange shuffle
 *   crack_brute msvc      FIRST COUNT CARD...   MSVC rand() % (i + 1), Fisher-Yates
 *
 * Cards are 0-based indices of the unshuffled deck, seen at positions 0..k-1.
 * Prints the number of seeds searched and every matching seed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DECK 52

/* Delphi: RandSeed := RandSeed * $08088405 + 1; Random(51) = (RandSeed * 51) shr 32;
 * for ctr := 1 to 52: exchange card[ctr] and card[Random(51) + 1] (1-based). */
static void shuffle_poker1999(uint32_t seed, int *deck) {
    for (int i = 0; i < DECK; i++) deck[i] = i;
    for (int i = 0; i < DECK; i++) {
        seed = seed * 134775813u + 1u;
        int j = (int)(((uint64_t)seed * 51u) >> 32);
        int t = deck[i]; deck[i] = deck[j]; deck[j] = t;
    }
}

/* MSVC: holdrand = holdrand * 214013 + 2531011; rand() = (holdrand >> 16) & 0x7fff;
 * for i = 51 down to 1: exchange deck[i] and deck[rand() % (i + 1)]. */
static void shuffle_msvc(uint32_t seed, int *deck) {
    for (int i = 0; i < DECK; i++) deck[i] = i;
    for (int i = DECK - 1; i > 0; i--) {
        seed = seed * 214013u + 2531011u;
        int j = (int)((seed >> 16) & 0x7fff) % (i + 1);
        int t = deck[i]; deck[i] = deck[j]; deck[j] = t;
    }
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s poker1999|msvc FIRST COUNT CARD...\n", argv[0]);
        return 2;
    }
    void (*shuffle)(uint32_t, int *) = strcmp(argv[1], "msvc") == 0 ? shuffle_msvc : shuffle_poker1999;
    uint64_t first = strtoull(argv[2], NULL, 0), count = strtoull(argv[3], NULL, 0);
    int k = argc - 4, seen[DECK], deck[DECK];
    for (int q = 0; q < k; q++) seen[q] = atoi(argv[4 + q]);
    for (uint64_t s = first; s < first + count; s++) {
        shuffle((uint32_t)s, deck);
        int q = 0;
        while (q < k && deck[q] == seen[q]) q++;
        if (q == k) printf("%llu\n", (unsigned long long)s);
    }
    printf("searched %llu\n", (unsigned long long)count);
    return 0;
}
