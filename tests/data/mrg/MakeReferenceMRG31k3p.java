// Reference outputs of MRG31k3p from SSJ (github.com/umontreal-simul/ssj,
// umontreal.ssj.rng.MRG31k3p), built outside rnglab:
//   javac -d out -sourcepath ssj/src/main/java MakeReferenceMRG31k3p.java
//   java -cp out MakeReferenceMRG31k3p > mrg31k3p_reference.txt
// Lines: "seed s0 .. s5" (SSJ's order: x11 x12 x13 x21 x22 x23, newest first),
// then per output "z u": u = nextDouble() printed exactly (%.17g), z the integer
// of the combination, recovered from the state (x11 and x21 are the newest states).
import umontreal.ssj.rng.MRG31k3p;

public class MakeReferenceMRG31k3p {
    static void run(int[] seed, int count) {
        MRG31k3p g = new MRG31k3p();
        g.setSeed(seed);
        System.out.printf("seed %d %d %d %d %d %d%n", seed[0], seed[1], seed[2], seed[3], seed[4], seed[5]);
        for (int i = 0; i < count; i++) {
            double u = g.nextDouble();
            int[] s = g.getState();
            long z = (long) s[0] - (long) s[3];
            if (z <= 0) z += 2147483647L;
            System.out.println(z + " " + String.format("%.17g", u));
        }
    }

    public static void main(String[] args) {
        run(new int[] {12345, 12345, 12345, 12345, 12345, 12345}, 20);
        run(new int[] {1, 2, 3, 4, 5, 6}, 20);
        run(new int[] {2147483646, 123456789, 987654321, 2147462578, 7, 1999999999}, 20);
    }
}
