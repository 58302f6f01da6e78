/* SmallCrush (TestU01 1.2.3) on a stream of 32-bit little-endian words read from standard input,
 * or on TestU01's own MINSTD (ulcg_CreateLCG(2^31 - 1, 16807, 0, 12345), as examples/bat1.c).
 *
 * Build (TestU01 installed under $T):
 *   cc -O2 -o smallcrush smallcrush.c -I$T/include -L$T/lib -ltestu01 -lprobdist -lmylib -lm
 * Use:
 *   rnglab stream java --seed 12345 | ./smallcrush java      # one line per statistic: index, name, p-value
 *   ./smallcrush --minstd                                     # the built-in LCG (the benchmark's reference)
 * Each word is one call of TestU01's GetBits (unif01_CreateExternGenBits), so u = word / 2^32.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unif01.h"
#include "ulcg.h"
#include "bbattery.h"

static unsigned int next_word(void)
{
    unsigned char b[4];
    if (fread(b, 1, 4, stdin) != 4) {
        fprintf(stderr, "smallcrush: standard input ended\n");
        exit(3);
    }
    return (unsigned int) b[0] | (unsigned int) b[1] << 8 | (unsigned int) b[2] << 16 | (unsigned int) b[3] << 24;
}

int main(int argc, char *argv[])
{
    static char buffer[1 << 20];
    unif01_Gen *gen;
    int builtin = argc > 1 && strcmp(argv[1], "--minstd") == 0;
    int i;
    setvbuf(stdin, buffer, _IOFBF, sizeof buffer);
    gen = builtin ? ulcg_CreateLCG(2147483647, 16807, 0, 12345)
                  : unif01_CreateExternGenBits(argc > 1 ? argv[1] : "stdin", next_word);
    bbattery_SmallCrush(gen);
    for (i = 0; i < bbattery_NTests; i++)
        printf("RESULT %d %s %.6g\n", i + 1, bbattery_TestNames[i], bbattery_pVal[i]);
    if (builtin)
        ulcg_DeleteGen(gen);
    else
        unif01_DeleteExternGenBits(gen);
    return 0;
}
