package io.ferry.rpc.spring.boot;

import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** The Boot applications of the tests: real SpringApplications, without a web server. */
final class BootApps {
    private BootApps() {
    }

    /** A provider whose {@code @RpcExport} bean is wrapped in an AOP proxy that counts its calls. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Provider {
        final AtomicInteger advised = new AtomicInteger();
        /** The bean's target: its latches (a CGLIB proxy's own fields are not the target's). */
        final HelloService service = new HelloService();

        @Bean
        HelloService helloService() {
            return service;
        }

        @Bean
        static BeanPostProcessor countingProxy(org.springframework.beans.factory.BeanFactory beans) {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String name) {
                    if (!(bean instanceof HelloService)) {
                        return bean;
                    }
                    ProxyFactory proxy = new ProxyFactory(bean);
                    proxy.setProxyTargetClass(true); // a CGLIB subclass, as @Transactional makes
                    proxy.addAdvice((MethodInterceptor) call -> {
                        beans.getBean(Provider.class).advised.incrementAndGet();
                        return call.proceed();
                    });
                    return proxy.getProxy();
                }
            };
        }
    }

    /** A consumer with a bean given its reference by constructor and by field. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(HelloClient.class)
    static class Consumer {
    }

    /**
     * A consumer whose own work is drained by the application's shutdown as a web server's graceful shutdown drains
     * its requests: a bean of that phase that stops once the work it was given has ended.
     */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(HelloClient.class)
    static class ConsumerWithWork {
        final InFlightWork work = new InFlightWork();

        @Bean
        InFlightWork inFlightWork() {
            return work;
        }
    }

    /** Stops in the phase of Boot's graceful web-server shutdown, once its work has ended (as Tomcat's does). */
    static final class InFlightWork implements SmartLifecycle {
        volatile java.util.concurrent.CompletableFuture<?> work = java.util.concurrent.CompletableFuture
                .completedFuture(null);
        /** Runs when the shutdown asks this bean to stop, before it waits for its work. */
        volatile Runnable onStop = () -> { };
        private volatile boolean running;

        @Override
        public void start() {
            running = true;
        }

        @Override
        public void stop() {
            running = false;
        }

        @Override
        public void stop(Runnable callback) {
            onStop.run();
            work.whenComplete((result, failure) -> {
                running = false;
                callback.run();
            });
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public int getPhase() {
            return SmartLifecycle.DEFAULT_PHASE - 1024; // WebServerGracefulShutdownLifecycle's
        }
    }

    /**
     * An application that exports {@link Hello} and references it too, with {@code check} on (the default), as Dubbo
     * applications often do.
     */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(HelloClient.class)
    static class SelfReferencing {
        @Bean
        HelloService helloService() {
            return new HelloService();
        }
    }

    /** Only Ferry's properties: no service, no reference. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Empty {
    }

    static ConfigurableApplicationContext start(Class<?> app, String... properties) {
        List<String> all = new ArrayList<>(List.of("spring.main.banner-mode=off",
                "spring.main.register-shutdown-hook=false"));
        all.addAll(List.of(properties));
        return new SpringApplicationBuilder(app).web(WebApplicationType.NONE).properties(all.toArray(String[]::new))
                .run();
    }
}
