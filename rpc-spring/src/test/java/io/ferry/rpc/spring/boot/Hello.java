package io.ferry.rpc.spring.boot;

/** The service the Boot tests export and call. */
public interface Hello {
    String hello(String name);

    /** Answers once the test lets it: a call in flight for as long as the test wants. */
    String slow(String name);
}
