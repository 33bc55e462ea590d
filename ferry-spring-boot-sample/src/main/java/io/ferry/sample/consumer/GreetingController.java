package io.ferry.sample.consumer;

import io.ferry.rpc.RpcReference;
import io.ferry.sample.api.Greeter;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Dubbo's {@code @DubboReference}, as {@link RpcReference} on a constructor parameter. */
@RestController
public class GreetingController {
    private final Greeter greeter;

    public GreetingController(@RpcReference(version = "1.0.0") Greeter greeter) {
        this.greeter = greeter;
    }

    @GetMapping("/greet")
    public String greet(@RequestParam(defaultValue = "world") String name) {
        return greeter.greet(name);
    }
}
