// Reference deals of java.util.Collections.shuffle(list, new Random(seed)).
// Run with a JDK:  java CollectionsShuffleReference.java > reference_java.txt
// Each line: pipeline seed n, then the items at positions 0 .. n-1.
// With the argument "names" (java CollectionsShuffleReference.java names > names_java.txt): 52 cards named
// "A23456789TJQK"[i % 13] then "cdhs"[i / 13] (rnglab's standard deck), shuffled; "pipeline seed 52:" and the names.
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

public class CollectionsShuffleReference {
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("names")) {
            for (long seed : new long[] {0L, 1L, 42L, 1795341600000L}) {
                List<String> deck = new ArrayList<>();
                for (int i = 0; i < 52; i++) deck.add("" + "A23456789TJQK".charAt(i % 13) + "cdhs".charAt(i / 13));
                Collections.shuffle(deck, new Random(seed));
                System.out.println("java-collections " + seed + " 52: " + String.join(", ", deck));
            }
            return;
        }
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
