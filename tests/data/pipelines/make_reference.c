/* Reference deals of the C shuffles of the articles, on glibc's rand() and on MSVC's rand().
 * Build and run on a glibc system:
 *     gcc -O2 -o make_reference_c make_reference.c && ./make_reference_c > reference_c.txt
 * glibc's rand() is the real one; MSVC's is written out from the Microsoft C runtime's rand.c
 * (holdrand = holdrand * 214013 + 2531011; return (holdrand >> 16) & 0x7fff), as no Windows is at hand.
 * Each line: pipeline seed n, then the items at positions 0 .. n-1 (card i is rank i % 13 of suit i / 13).
 * With the argument "names" (./make_reference_c names > names_c.txt) each line is "pipeline seed n:" and the
 * cards dealt by name, separated by ", ": Deitel's as the book's program prints them (face[column] of
 * suit[row] for cards 1, 2, ..., 52 in turn, as its deal() does, with
 * the book's suit[4] = {"Hearts", "Diamonds", "Clubs", "Spades"} for rows 0..3 and face[13] = {"Ace", "Deuce",
 * ..., "King"} for columns 0..12); the other shuffles' decks are arrays of names built as "A23456789TJQK"[i % 13]
 * then "cdhs"[i / 13] (rnglab's standard deck: those programs shuffle integers and print none). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long holdrand;
static void msvc_srand(unsigned seed) { holdrand = seed; }
static int msvc_rand(void) { holdrand = (holdrand * 214013UL + 2531011UL) & 0xffffffffUL; return (int)((holdrand >> 16) & 0x7fff); }

typedef struct { const char *name; void (*seed)(unsigned); int (*next)(void); } runtime;
static const runtime runtimes[] = {{"glibc", srand, rand}, {"msvc", msvc_srand, msvc_rand}};

/* Deitel: for each card, do { row = rand() % 4; column = rand() % 13; } while (deck[row][column] != 0);
 * deal the slots of cards 1, 2, ..., 52. */
static void deitel(const runtime *r, int *out)
{
    int deck[4][13];
    memset(deck, 0, sizeof deck);
    for (int card = 1; card <= 52; card++) {
        int row, column;
        do {
            row = r->next() % 4;
            column = r->next() % 13;
        } while (deck[row][column] != 0);
        deck[row][column] = card;
    }
    for (int card = 1; card <= 52; card++)
        for (int row = 0; row < 4; row++)
            for (int column = 0; column < 13; column++)
                if (deck[row][column] == card)
                    out[card - 1] = row * 13 + column;
}

static const char *suit[4] = {"Hearts", "Diamonds", "Clubs", "Spades"};
static const char *face[13] = {"Ace", "Deuce", "Three", "Four", "Five", "Six", "Seven",
                               "Eight", "Nine", "Ten", "Jack", "Queen", "King"};

/* Deitel's deal(): card 1, 2, ..., 52 printed as the face of its column in the suit of its row. */
static void deitel_names(const runtime *r, unsigned seed)
{
    int slot[52];
    r->seed(seed);
    deitel(r, slot);
    printf("deitel-%s %u 52:", r->name, seed);
    for (int card = 0; card < 52; card++)
        printf("%s %s of %s", card ? "," : "", face[slot[card] % 13], suit[slot[card] / 13]);
    printf("\n");
}

static void print_names(const char *name, const char *rt, unsigned seed, const int *a, int n)
{
    printf("%s-%s %u %d:", name, rt, seed, n);
    for (int i = 0; i < n; i++) printf("%s %c%c", i ? "," : "", "A23456789TJQK"[a[i] % 13], "cdhs"[a[i] / 13]);
    printf("\n");
}

/* The naive exchange: every position swapped with rand() % len. */
static void naive(const runtime *r, int *a, int n)
{
    for (int i = 0; i < n; i++) {
        int j = r->next() % n, t = a[i];
        a[i] = a[j]; a[j] = t;
    }
}

/* Random swaps: n times, swap two positions rand() % len, rand() % len. */
static void swaps(const runtime *r, int *a, int n)
{
    for (int k = 0; k < n; k++) {
        int x = r->next() % n, y = r->next() % n, t = a[x];
        a[x] = a[y]; a[y] = t;
    }
}

static void print(const char *name, const char *rt, unsigned seed, const int *a, int n)
{
    printf("%s-%s %u %d", name, rt, seed, n);
    for (int i = 0; i < n; i++) printf(" %d", a[i]);
    printf("\n");
}

static int names_main(void)
{
    const unsigned seeds[] = {1u, 42u, 1795341600u};
    int a[52];
    for (int t = 0; t < 2; t++)
        for (int s = 0; s < 3; s++) {
            const runtime *r = &runtimes[t];
            deitel_names(r, seeds[s]);
            for (int i = 0; i < 52; i++) a[i] = i;
            r->seed(seeds[s]);
            naive(r, a, 52);
            print_names("c-naive", r->name, seeds[s], a, 52);
            for (int i = 0; i < 52; i++) a[i] = i;
            r->seed(seeds[s]);
            swaps(r, a, 52);
            print_names("c-swaps", r->name, seeds[s], a, 52);
        }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "names") == 0)
        return names_main();
    const unsigned seeds[] = {1u, 42u, 1795341600u};
    const int sizes[] = {10, 52};
    int a[52];
    for (int t = 0; t < 2; t++)
        for (int s = 0; s < 3; s++) {
            const runtime *r = &runtimes[t];
            r->seed(seeds[s]);
            deitel(r, a);
            print("deitel", r->name, seeds[s], a, 52);
            for (int z = 0; z < 2; z++) {
                int n = sizes[z];
                for (int i = 0; i < n; i++) a[i] = i;
                r->seed(seeds[s]);
                naive(r, a, n);
                print("c-naive", r->name, seeds[s], a, n);
                for (int i = 0; i < n; i++) a[i] = i;
                r->seed(seeds[s]);
                swaps(r, a, n);
                print("c-swaps", r->name, seeds[s], a, n);
            }
        }
    return 0;
}
