package io.ferry.rpc.config.internal.mock;

import io.ferry.rpc.config.fixtures.User;
import io.ferry.rpc.remoting.ThreadPoolKind;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code mock="return <value>"} read for a return type as Dubbo's MockInvoker reads it, or refused if it cannot be. */
class MockValueTest {
    /** Return types to read values for, as a method declares them. */
    interface Types {
        int count();

        long big();

        double ratio();

        boolean flag();

        Boolean boxed();

        char letter();

        String text();

        Object anything();

        BigDecimal money();

        ThreadPoolKind kind();

        LocalDate day();

        List<Integer> numbers();

        Set<String> tags();

        Map<String, Long> totals();

        int[] ints();

        User user();

        CompletableFuture<List<String>> later();

        void nothing();
    }

    private static Object value(String text, String method) {
        return MockValue.parse(text, type(method)).get();
    }

    private static Type type(String method) {
        try {
            return MockPlan.valueType(Types.class.getMethod(method));
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private static String refused(String text, String method) {
        return assertThrows(IllegalArgumentException.class, () -> MockValue.parse(text, type(method))).getMessage();
    }

    @Test
    void nullAndEmpty() {
        assertNull(value("null", "text"));
        assertNull(value("null", "user"));
        assertNull(value("null", "nothing"));
        assertEquals(0, value("empty", "count"));
        assertEquals(false, value("empty", "flag"));
        assertEquals('\0', value("empty", "letter"));
        assertEquals("", value("empty", "text"));
        assertEquals(List.of(), value("empty", "numbers"));
        assertEquals(Set.of(), value("empty", "tags"));
        assertEquals(Map.of(), value("empty", "totals"));
        assertArrayEquals(new int[0], (int[]) value("empty", "ints"));
        assertEquals(List.of(), value("empty", "later"), "a future's value: its type argument's empty");
        User empty = (User) value("empty", "user");
        assertEquals("", empty.getName(), "unset fields are empty in turn");
        assertEquals(0, empty.getId());
        assertEquals(List.of(), empty.getTags(), "what the constructor set is kept");
        assertNull(value("empty", "kind"), "an enum has no empty value: null, as in Dubbo");
    }

    @Test
    void scalarsAsDubboReadsThem() {
        assertEquals(42, value("42", "count"));
        assertEquals(-1, value("-1", "count"));
        assertEquals(8_000_000_000L, value("8000000000", "big"));
        assertEquals(1.5, value("1.5", "ratio"));
        assertEquals(true, value("true", "flag"));
        assertEquals(false, value("false", "boxed"));
        assertEquals('x', value("x", "letter"));
        assertEquals(new BigDecimal("12.50"), value("12.50", "money"));
        assertEquals(ThreadPoolKind.CACHED, value("CACHED", "kind"));
        assertEquals(LocalDate.of(2024, 1, 31), value("2024-01-31", "day"));
        assertEquals("plain words", value("plain words", "text"), "a String method's text, as it is");
        assertEquals("true", value("true", "text"));
        assertEquals("quoted", value("\"quoted\"", "text"));
        assertEquals("single", value("'single'", "text"));
        assertEquals("null", value("'null'", "text"), "quoted: the text, not null");
        assertEquals(42, value("42", "anything"), "an Object method: a number as JSON reads it");
        assertEquals("word", value("word", "anything"));
    }

    @Test
    void jsonForCollectionsMapsArraysAndObjects() {
        assertEquals(List.of(1, 2, 3), value("[1, 2, 3]", "numbers"));
        assertEquals(Set.of("a", "b"), value("['a', \"b\"]", "tags"));
        assertEquals(Map.of("x", 1L, "y", 2L), value("{\"x\": 1, 'y': 2}", "totals"));
        assertArrayEquals(new int[] {4, 5}, (int[]) value("[4,5]", "ints"));
        assertEquals(List.of("a"), value("[\"a\"]", "later"));
        assertEquals(List.of(Map.of("k", List.of(1))), value("[{\"k\": [1]}]", "anything"));
        User user = (User) value("{\"id\": 7, \"name\": \"ann\", \"tags\": [\"x\"]}", "user");
        assertEquals(7, user.getId());
        assertEquals("ann", user.getName());
        assertEquals(List.of("x"), user.getTags());
        assertNull(user.getAddress());
    }

    @Test
    void mutableValuesAreFreshForEveryCall() {
        var numbers = MockValue.parse("[1]", type("numbers"));
        @SuppressWarnings("unchecked")
        List<Integer> first = (List<Integer>) numbers.get();
        first.add(2);
        assertEquals(List.of(1), numbers.get(), "one caller's change is not the next caller's answer");
        assertTrue(first instanceof ArrayList);
        var empty = MockValue.parse("empty", type("user"));
        assertNotSame(empty.get(), empty.get());
    }

    @Test
    void valuesTheTypeCannotTakeAreRefusedWithWhatItExpects() {
        assertEquals("a whole number that fits int, not 'many'", refused("many", "count"));
        assertEquals("a whole number that fits int, not '3000000000'", refused("3000000000", "count"));
        assertEquals("a whole number that fits int, not '1.5'", refused("1.5", "count"));
        assertEquals("a value of int: it cannot be null; return empty gives 0", refused("null", "count"));
        assertEquals("true or false, not 'yes'", refused("yes", "flag"));
        assertEquals("one character, not 'xy'", refused("xy", "letter"));
        assertTrue(refused("SOMETIMES", "kind").startsWith("one of [FIXED, "), refused("SOMETIMES", "kind"));
        assertTrue(refused("{\"x\": 1}", "count").endsWith("not a JSON object"));
        assertTrue(refused("[1, 2", "numbers").startsWith("JSON with ']' at character 6"), refused("[1, 2", "numbers"));
        assertTrue(refused("{\"nope\": 1}", "user").startsWith("fields of " + User.class.getName()),
                refused("{\"nope\": 1}", "user"));
        assertEquals("User.id: a whole number that fits long, not 'seven'", refused("{\"id\": \"seven\"}", "user"));
    }

    @Test
    void aFuturesValueIsItsTypeArgument() throws Exception {
        assertEquals("java.util.List<java.lang.String>", type("later").getTypeName());
        assertEquals(User.class, type("user"));
    }
}
