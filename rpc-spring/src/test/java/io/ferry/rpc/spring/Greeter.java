package io.ferry.rpc.spring;

import io.ferry.rpc.config.fixtures.DemoService;

/** An ordinary bean of the consumer's that is given a reference as any other collaborator. */
public final class Greeter {
    private final DemoService demo;

    public Greeter(DemoService demo) {
        this.demo = demo;
    }

    public String greet(String name) {
        return demo.sayHello(name);
    }
}
