package io.ferry.sample.api;

/** The sample's service: what the provider exports and the consumer calls. */
public interface Greeter {
    String greet(String name);
}
