// Known answers from the real java.util.Random, for tests/test_catalog.py.
// Run: java JavaReference.java   (Java 11+ runs a single source file directly)
// Output: "java SEED next32_1 ... next32_5" (nextInt() as unsigned 32-bit) and
//         "java-nextint SEED BOUND v1 ... v5" (nextInt(bound)).
import java.util.Random;

public class JavaReference {
    static void next32(long seed) {
        Random r = new Random(seed);
        StringBuilder line = new StringBuilder("java " + seed);
        for (int i = 0; i < 5; i++) line.append(" ").append(Integer.toUnsignedString(r.nextInt()));
        System.out.println(line);
    }

    static void bounded(long seed, int bound) {
        Random r = new Random(seed);
        StringBuilder line = new StringBuilder("java-nextint " + seed + " " + bound);
        for (int i = 0; i < 5; i++) line.append(" ").append(r.nextInt(bound));
        System.out.println(line);
    }

    public static void main(String[] args) {
        next32(0);
        next32(42);
        next32(-1);
        bounded(42, 52);
        bounded(42, 64);
        bounded(7, 1000000000);
    }
}
