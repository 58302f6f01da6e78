/* Reference outputs of glibc's rand() (random_r TYPE_3, the default 128-byte state).
 * Build and run on a glibc system:  gcc -O2 -o make_reference make_reference.c && ./make_reference > reference.txt
 * Each line: seed, then the first 40 values of rand() after srand(seed). */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    const unsigned seeds[] = {0u, 1u, 2u, 42u, 12345u, 1700000000u, 2147483647u, 2147483648u, 3000000000u, 4294967295u};
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        srand(seeds[s]);
        printf("%u", seeds[s]);
        for (int k = 0; k < 40; k++)
            printf(" %d", rand());
        printf("\n");
    }
    return 0;
}
