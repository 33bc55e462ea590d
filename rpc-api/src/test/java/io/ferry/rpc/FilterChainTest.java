package io.ferry.rpc;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** {@link Filter#chain}: the order filters run in, and a filter that answers without going on. */
class FilterChainTest {
    private final List<String> ran = new ArrayList<>();
    private final Invoker last = invocation -> {
        ran.add("invoker");
        return CompletableFuture.completedFuture(Result.of("from the invoker"));
    };

    private Filter recording(String name) {
        return (invocation, next) -> {
            ran.add(name);
            return next.invoke(invocation);
        };
    }

    private static Invocation invocation() throws NoSuchMethodException {
        return new Invocation("io.ferry.Echo", "", "", Object.class.getMethod("toString"), new Object[0],
                new HashMap<>(), Deadline.none(), false, Runnable::run);
    }

    @Test
    void theFirstFilterRunsFirstAndTheInvokerLast() throws Exception {
        Invoker chain = Filter.chain(List.of(recording("a"), recording("b"), recording("c")), last);
        assertEquals("from the invoker", chain.invoke(invocation()).join().value());
        assertEquals(List.of("a", "b", "c", "invoker"), ran);
    }

    @Test
    void aFilterThatAnswersItselfStopsTheChain() throws Exception {
        Filter cache = (invocation, next) -> {
            ran.add("cache");
            return CompletableFuture.completedFuture(Result.of("cached"));
        };
        Invoker chain = Filter.chain(List.of(recording("a"), cache, recording("c")), last);
        assertEquals("cached", chain.invoke(invocation()).join().value());
        assertEquals(List.of("a", "cache"), ran, "neither the filters after it nor the invoker ran");
    }

    @Test
    void eachFilterSeesWhatTheOneBeforeItPassedOn() throws Exception {
        Filter tagging = (invocation, next) -> {
            invocation.attachments().put("trace-id", "t1");
            return next.invoke(invocation);
        };
        Filter reading = (invocation, next) -> {
            ran.add("saw " + invocation.attachments().get("trace-id"));
            return next.invoke(invocation);
        };
        Filter.chain(List.of(tagging, reading), last).invoke(invocation()).join();
        assertEquals(List.of("saw t1", "invoker"), ran);
    }

    @Test
    void aFilterSeesTheAnswerOfEverythingAfterIt() throws Exception {
        Filter wrapping = (invocation, next) -> next.invoke(invocation)
                .thenApply(result -> Result.of("[" + result.value() + "]"));
        Invoker chain = Filter.chain(List.of(wrapping, recording("b")), last);
        assertEquals("[from the invoker]", chain.invoke(invocation()).join().value());
    }

    @Test
    void noFiltersIsTheInvokerItself() {
        assertSame(last, Filter.chain(List.of(), last));
    }
}
