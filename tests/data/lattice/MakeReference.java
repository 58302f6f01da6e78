// Reference data for tests/test_lattice_recovery.py, made by the JVM itself:
//   javac MakeReference.java && java MakeReference > java_reference.txt
// Each "deck" line: a seed, then Collections.shuffle(0..51, new Random(seed)) (list index 0 first).
// Each "dice" line: a seed, then 30 values of nextInt(6) from new Random(seed).
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

public class MakeReference {
    public static void main(String[] args) {
        long[] seeds = {0L, 42L, 1700000000123L, -5L, 123456789012345L, 987654321L};
        for (long seed : seeds) {
            List<Integer> deck = new ArrayList<>();
            for (int i = 0; i < 52; i++) deck.add(i);
            Collections.shuffle(deck, new Random(seed));
            StringBuilder line = new StringBuilder("deck " + seed);
            for (int card : deck) line.append(' ').append(card);
            System.out.println(line);
        }
        for (long seed : seeds) {
            Random random = new Random(seed);
            StringBuilder line = new StringBuilder("dice " + seed);
            for (int i = 0; i < 30; i++) line.append(' ').append(random.nextInt(6));
            System.out.println(line);
        }
    }
}
