package io.ferry.rpc.config.internal.accesslog;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Argument values as the access log shows them: readable, escaped, and bounded whatever their size. */
class ArgumentTextTest {
    enum Colour { RED }

    @Test
    void valuesReadAsTheyAreAndStringsAreQuoted() {
        assertEquals("[\"Ada\", 3, true, RED, null, byte[4], [1, 2], {\"k\"=\"v\"}, [\"x\"]]",
                ArgumentText.of(new Object[] {"Ada", 3, true, Colour.RED, null, new byte[4], new int[] {1, 2},
                        Map.of("k", "v"), List.of("x")}));
        assertEquals("[]", ArgumentText.of(new Object[0]));
    }

    @Test
    void controlCharactersQuotesAndBackslashesAreEscaped() {
        String shown = ArgumentText.of(new Object[] {"a\"b\\c\n2025 forged\u001b[31m\u202e"});

        assertEquals("[\"a\\\"b\\\\c\\n2025 forged\\u001b[31m\\u202e\"]", shown);
    }

    @Test
    void eachArgumentIsCutAtItsLimitAndTheWholeAtItsOwn() {
        String shown = ArgumentText.of(new Object[] {"x".repeat(10_000), 7});
        assertTrue(shown.startsWith("[\"xxx"), shown);
        assertTrue(shown.endsWith("x..., 7]"), shown);
        assertEquals(ArgumentText.PER_ARGUMENT + "[, 7]".length(), shown.length(), shown);

        Object[] many = IntStream.range(0, 50).mapToObj(i -> "y".repeat(500)).toArray();
        String all = ArgumentText.of(many);
        assertTrue(all.length() <= ArgumentText.IN_ALL + 2, all.length() + ": " + all);
        assertTrue(all.endsWith("...]"), all);
    }

    @Test
    void aHugeCollectionIsWalkedOnlyAsFarAsItsTextCanShow() {
        class Counting implements Iterable<Integer> {
            int read;

            @Override
            public java.util.Iterator<Integer> iterator() {
                return IntStream.range(0, 1_000_000).peek(i -> read++).iterator();
            }
        }
        Counting counted = new Counting();
        List<Integer> million = new java.util.AbstractList<>() {
            @Override
            public Integer get(int index) {
                return index;
            }

            @Override
            public int size() {
                return 1_000_000;
            }

            @Override
            public java.util.Iterator<Integer> iterator() {
                return counted.iterator();
            }
        };
        String shown = ArgumentText.of(new Object[] {million});

        assertTrue(shown.length() <= ArgumentText.PER_ARGUMENT + 2, shown);
        assertTrue(counted.read < 200, "read " + counted.read + " elements");
    }

    @Test
    void anObjectWhoseToStringFailsStillLeavesALine() {
        Object broken = new Object() {
            @Override
            public String toString() {
                throw new IllegalStateException("no");
            }
        };
        String shown = ArgumentText.of(new Object[] {broken});

        assertTrue(shown.contains("toString threw java.lang.IllegalStateException"), shown);
        assertFalse(shown.contains("\n"));
    }
}
