package io.ferry.sample.provider;

import io.ferry.rpc.RpcExport;
import io.ferry.sample.api.Greeter;
import org.springframework.beans.factory.annotation.Value;

/**
 * Dubbo's {@code @DubboService}, as {@link RpcExport}: a bean through {@code ferry.scan.base-packages}, and exported
 * once the application has started.
 */
@RpcExport(version = "1.0.0")
public class GreeterService implements Greeter {
    private final String application;

    public GreeterService(@Value("${ferry.application.name}") String application) {
        this.application = application;
    }

    @Override
    public String greet(String name) {
        return "Hello " + name + ", from " + application;
    }
}
