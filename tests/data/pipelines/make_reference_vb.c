/* Reference deals of the VBScript Fisher-Yates shuffle of the xiangqi pieces, for tests/test_pipelines.py:
 *     Randomize n
 *     For i = UBound(pieces) To 1 Step -1
 *         j = Int(Rnd * (i + 1))
 *         t = pieces(i): pieces(i) = pieces(j): pieces(j) = t
 *     Next
 * No Windows is at hand: Rnd and Randomize are written out here from MSVBVM60.DLL's rtcRandomNext and
 * rtcRandomize as disassembled in public (see rnglab/generators/vb.py; Rnd's constants are those of
 * Microsoft KB 231847), and the product Rnd * (i + 1) is taken in double, as VBScript's Variant arithmetic
 * does for a Single times a Long. This pins rnglab to that transcription, not to vbscript.dll itself.
 * Build and run:  gcc -O2 -o make_reference_vb make_reference_vb.c && ./make_reference_vb > reference_vb.txt
 * Each line: vbscript-xiangqi <Randomize argument> 15, then the pieces (indices 0..14) at positions 0..14.
 * With the argument "names" (./make_reference_vb names > names_vb.txt) the pieces are the jieqi side's 15 names in
 * rnglab's order (advisor x2, elephant x2, horse x2, chariot x2, cannon x2, soldier x5), each line
 * "vbscript-xiangqi <Randomize argument> 15:" and the names, ", " apart. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>

static uint32_t state = 0x50000;

static void randomize(double number)
{
    uint32_t high;
    uint64_t bits;
    memcpy(&bits, &number, 8);
    high = (uint32_t)(bits >> 32);
    state = (((high & 0xffff) << 8) ^ ((high >> 8) & 0xffff00)) | (state & 0xff0000ff);
}

static float rnd(void)
{
    state = (0xffc39ec3u - state * 0x2bc03u) & 0xffffff;
    return (float)state * 5.9604645e-08f;
}

static const char *piece[15] = {"advisor", "advisor", "elephant", "elephant", "horse", "horse", "chariot",
                                "chariot", "cannon", "cannon", "soldier", "soldier", "soldier", "soldier", "soldier"};

int main(int argc, char **argv)
{
    int names = argc > 1 && strcmp(argv[1], "names") == 0;
    const double numbers[] = {0.0, 1.0, 12345.0, -7.0, 43200.5};
    for (size_t s = 0; s < sizeof numbers / sizeof numbers[0]; s++) {
        int pieces[15];
        for (int i = 0; i < 15; i++) pieces[i] = i;
        state = 0x50000;  /* a fresh script */
        randomize(numbers[s]);
        for (int i = 14; i >= 1; i--) {
            int j = (int)floor((double)rnd() * (double)(i + 1));
            int t = pieces[i]; pieces[i] = pieces[j]; pieces[j] = t;
        }
        printf("vbscript-xiangqi %.17g 15%s", numbers[s], names ? ":" : "");
        for (int i = 0; i < 15; i++)
            if (names) printf("%s %s", i ? "," : "", piece[pieces[i]]);
            else printf(" %d", pieces[i]);
        printf("\n");
    }
    return 0;
}
