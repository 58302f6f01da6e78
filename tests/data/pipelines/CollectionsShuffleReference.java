// Reference deals of java.util.Collections.shuffle(list, new Random(seed)).
// Run with a JDK:  java CollectionsShuffleReference.java > reference_java.txt
// Each line: pipeline seed n, then the items at positions 0 .. n-1.
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

public class CollectionsShuffleReference {
    public static void main(String[] args) {
        long[] seeds = {0L, 1L, 42L, 1795341600000L};
        int[] sizes = {1, 2, 5, 10, 52};
        for (long seed : seeds) {
            for (int n : sizes) {
                List<Integer> list = new ArrayList<>();
                for (int i = 0; i < n; i++) list.add(i);
                Collections.shuffle(list, new Random(seed));
                StringBuilder line = new StringBuilder("java-collections " + seed + " " + n);
                for (int v : list) line.append(' ').append(v);
                System.out.println(line);
            }
        }
    }
}
