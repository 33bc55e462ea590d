package io.ferry.rpc.spring.boot;

import io.ferry.rpc.RpcExport;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ClassPathBeanDefinitionScanner;
import org.springframework.core.env.Environment;
import org.springframework.core.type.filter.AnnotationTypeFilter;

import java.util.List;

/**
 * {@code ferry.scan.base-packages}, Dubbo's {@code dubbo.scan.base-packages}: the {@link RpcExport} classes of these
 * packages become beans (and so are exported) without {@code @Component}, as Dubbo's {@code @DubboService} classes
 * do. A class that is a bean already is left as it is.
 */
final class RpcExportScan implements BeanDefinitionRegistryPostProcessor {
    static final String PREFIX = "ferry.scan";
    private final Environment environment;

    RpcExportScan(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
        List<String> packages = Binder.get(environment).bind(PREFIX + ".base-packages",
                Bindable.listOf(String.class)).orElse(List.of());
        if (packages.isEmpty()) {
            return;
        }
        ClassPathBeanDefinitionScanner scanner = new ClassPathBeanDefinitionScanner(registry, false, environment);
        scanner.addIncludeFilter(new AnnotationTypeFilter(RpcExport.class));
        scanner.scan(packages.stream().map(String::trim).filter(p -> !p.isEmpty()).toArray(String[]::new));
    }
}
