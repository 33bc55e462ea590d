package io.ferry.rpc.remoting;

import java.util.List;

/** The service remoting tests call. */
public interface Greeter {
    String hello(String name);

    String describe(Object value);

    List<Item> items(int count);

    /** A value type reachable from the signature. */
    record Item(String name, int count) implements java.io.Serializable {
    }
}
