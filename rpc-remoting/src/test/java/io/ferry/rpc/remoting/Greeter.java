package io.ferry.rpc.remoting;

import java.util.List;
import java.util.Set;

/** The service remoting tests call. */
public interface Greeter {
    String hello(String name);

    String describe(Object value);

    List<Item> items(int count);

    /** How many distinct values: a set parameter, which a generic call fills from a list. */
    int tally(Set<Object> values);

    /** A value type reachable from the signature. */
    record Item(String name, int count) implements java.io.Serializable {
    }
}
