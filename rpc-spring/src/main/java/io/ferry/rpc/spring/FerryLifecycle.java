package io.ferry.rpc.spring;

import io.ferry.rpc.spi.Validate;
import io.ferry.rpc.RpcReference;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.FerryFile;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.ServiceConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.SmartLifecycle;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The context's Ferry and its lifecycle. The Ferry is built when first wanted (a reference injected while the
 * context refreshes, or the start), from every {@link FerryDeclaration} bean as one declaration and with every
 * {@link FerryCustomizer} applied; services are exported when the context starts, once its singletons exist. As
 * Dubbo 3's deployer exports, then refers: references made while the context refreshes do not wait for a provider
 * then; once the services are exported, every reference with {@code check} (the default) must have a ready provider
 * within its connect timeout, or the start fails naming each that has none ({@link Ferry#checkReferences()}). The
 * context's stop or close unregisters them, drains the calls in flight and closes the Ferry (Spring's lifecycle
 * phase {@link #PHASE}, after the web server's graceful shutdown in Boot).
 */
public final class FerryLifecycle implements SmartLifecycle, BeanFactoryAware, DisposableBean {
    /** The bean's name in a context. */
    public static final String BEAN_NAME = "ferryLifecycle";
    /**
     * Starts after Boot's web server has started, and stops after Boot's graceful shutdown of web servers has drained
     * their requests (its phase is {@code DEFAULT_PHASE - 1024}) and before the web server stops ({@code - 2048}): a
     * request in flight still has the references it calls, and services are served until it has ended.
     */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1536;
    private static final Logger log = LoggerFactory.getLogger(FerryLifecycle.class);

    private ConfigurableListableBeanFactory beans;
    private Ferry ferry;
    private FerryFile declared;
    private final List<ServiceConfig<?>> annotated = new ArrayList<>();
    /** The references annotations asked for, one per interface and annotation (a field's or a parameter's). */
    private final Map<AnnotatedReference, Object> references = new HashMap<>();
    private boolean running;

    private record AnnotatedReference(Class<?> type, RpcReference annotation) {
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beans = (ConfigurableListableBeanFactory) beanFactory;
    }

    /** The context's Ferry, built now if it was not yet. */
    public synchronized Ferry ferry() {
        if (ferry == null) {
            FerryFile file = FerryFile.properties(List.of(), key -> key);
            // every declaration's mistakes in one error: two files wrong are fixed in one round too
            List<IllegalArgumentException> wrong = new ArrayList<>();
            for (FerryDeclaration declaration : beans.getBeanProvider(FerryDeclaration.class).orderedStream()
                    .toList()) {
                try {
                    FerryFile read = declaration.read(this::placeholders);
                    file = wrong.isEmpty() ? file.and(read) : file;
                } catch (IllegalArgumentException e) {
                    wrong.add(e);
                }
            }
            Validate.throwAll(wrong);
            // references are made while beans are, services exported at start: check references after that
            // the context closes it
            Ferry.Builder builder = Ferry.builder().shutdownHook(false).checkReferencesLater();
            beans.getBeanProvider(FerryCustomizer.class).orderedStream().forEach(c -> c.customize(builder));
            ferry = file.build(builder);
            declared = file;
        }
        return ferry;
    }

    private String placeholders(String value) {
        String resolved = beans.resolveEmbeddedValue(value);
        if (resolved != null && resolved.contains("${")) {
            throw new IllegalArgumentException("a placeholder the context cannot resolve (expected: a property of "
                    + "the environment or of a placeholder configurer)");
        }
        return resolved;
    }

    /** Exports the service of an {@code @RpcExport} bean when the context starts (now, if it has). */
    public synchronized void exportOnStart(ServiceConfig<?> service) {
        if (running) {
            ferry().export(service);
        } else {
            annotated.add(service);
        }
    }

    /**
     * The context's reference for an {@link RpcReference} on a field or parameter of type {@code type}: made on
     * first use, then the same proxy for every field and parameter with the same type and annotation values.
     *
     * @param where how messages name the field or parameter
     */
    public Object annotatedReference(RpcReference annotation, Class<?> type, String where) {
        AnnotatedReference key = new AnnotatedReference(type, annotation);
        synchronized (references) {
            Object reference = references.get(key);
            if (reference == null) {
                reference = ferry().reference(ReferenceConfig.fromAnnotation(annotation, type, where).build());
                references.put(key, reference);
            }
            return reference;
        }
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        Ferry f = ferry();
        int exported = declared.exportServices(f, this::bean, someBeanNames());
        annotated.forEach(f::export);
        exported += annotated.size();
        annotated.clear();
        running = true;
        if (exported > 0) {
            log.info("exported {} service(s) on port {}", exported, f.port());
        }
        f.checkReferences(); // each reference with check has a ready provider, its own context's services included
    }

    /** The application's beans' names, for a ref that names none (a message shows the nearest, or a few). */
    private List<String> someBeanNames() {
        return applicationBeans(beans);
    }

    /** Beans Ferry itself registers, which a {@code ref} never means. */
    private static final java.util.Set<String> FERRYS_OWN = java.util.Set.of(BEAN_NAME, FerryBeans.FERRY,
            "ferryProperties", "ferryExportScan", "ferryPropertyReferences", "ferryObservability",
            "ferryHealthIndicator");

    /**
     * The names of the context's beans that a {@code <ferry:service ref>} may mean: the application's, not Spring's
     * infrastructure (nor Boot's properties beans) nor Ferry's own ({@code ferryLifecycle},
     * {@code io.ferry.rpc.spring.RpcAnnotationProcessor}).
     */
    public static List<String> applicationBeans(ConfigurableListableBeanFactory beans) {
        List<String> names = new ArrayList<>();
        for (String name : beans.getBeanDefinitionNames()) {
            if (FERRYS_OWN.contains(name) || name.startsWith("io.ferry.") || name.contains("org.springframework.")
                    || beans.getBeanDefinition(name).getRole() != org.springframework.beans.factory.config
                    .BeanDefinition.ROLE_APPLICATION) {
                continue;
            }
            names.add(name);
        }
        return names;
    }

    /** A bean a {@code <ferry:service ref>} names, or null when the context has none of that name. */
    private Object bean(String name) {
        return beans.containsBean(name) ? beans.getBean(name) : null;
    }

    @Override
    public void stop() {
        close();
    }

    @Override
    public void stop(Runnable callback) {
        // the drain takes up to the shutdown timeout: let other beans of this phase stop meanwhile
        Thread stopping = new Thread(() -> {
            try {
                close();
            } finally {
                callback.run();
            }
        }, "ferry-stop");
        stopping.start();
    }

    @Override
    public synchronized boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    @Override
    public void destroy() {
        close();
    }

    private void close() {
        Ferry built;
        synchronized (this) {
            built = ferry;
            running = false;
        }
        if (built != null) {
            built.close(); // unregisters, drains the calls in flight, closes the references; idempotent
        }
    }
}
