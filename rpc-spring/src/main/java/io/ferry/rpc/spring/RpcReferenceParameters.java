package io.ferry.rpc.spring;

import io.ferry.rpc.RpcReference;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.BeanDefinitionHolder;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.config.DependencyDescriptor;
import org.springframework.beans.factory.support.AutowireCandidateResolver;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.core.MethodParameter;

import java.lang.reflect.Constructor;

/**
 * {@link RpcReference} on constructor and method parameters: the context's autowiring asks its candidate resolver
 * for a suggested value before it looks for beans, and this wraps that resolver so that an annotated parameter is
 * given the context's reference for it ({@link FerryLifecycle#annotatedReference}); every other question goes to the
 * resolver it wraps.
 */
final class RpcReferenceParameters implements BeanFactoryPostProcessor {
    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        if (beanFactory instanceof DefaultListableBeanFactory factory
                && !(factory.getAutowireCandidateResolver() instanceof Resolver)) {
            factory.setAutowireCandidateResolver(new Resolver(factory.getAutowireCandidateResolver(), factory));
        }
    }

    /** How messages name a parameter: {@code parameter greeter of com.acme.Shop's constructor}. */
    static String describe(MethodParameter parameter) {
        String name = parameter.getParameterName();
        String shown = name != null ? name : "#" + parameter.getParameterIndex();
        return "parameter " + shown + " of " + parameter.getDeclaringClass().getName()
                + (parameter.getExecutable() instanceof Constructor<?> ? "'s constructor"
                : "." + parameter.getExecutable().getName() + "()");
    }

    private record Resolver(AutowireCandidateResolver delegate, BeanFactory beans)
            implements AutowireCandidateResolver {
        @Override
        public Object getSuggestedValue(DependencyDescriptor descriptor) {
            MethodParameter parameter = descriptor.getMethodParameter();
            RpcReference annotation = parameter == null ? null : parameter.getParameterAnnotation(RpcReference.class);
            if (annotation == null) {
                return delegate.getSuggestedValue(descriptor);
            }
            return beans.getBean(FerryLifecycle.BEAN_NAME, FerryLifecycle.class)
                    .annotatedReference(annotation, parameter.getParameterType(), describe(parameter));
        }

        @Override
        public boolean isAutowireCandidate(BeanDefinitionHolder holder, DependencyDescriptor descriptor) {
            return delegate.isAutowireCandidate(holder, descriptor);
        }

        @Override
        public boolean isRequired(DependencyDescriptor descriptor) {
            return delegate.isRequired(descriptor);
        }

        @Override
        public boolean hasQualifier(DependencyDescriptor descriptor) {
            return delegate.hasQualifier(descriptor);
        }

        @Override
        public String getSuggestedName(DependencyDescriptor descriptor) {
            return delegate.getSuggestedName(descriptor);
        }

        @Override
        public Object getLazyResolutionProxyIfNecessary(DependencyDescriptor descriptor, String beanName) {
            return delegate.getLazyResolutionProxyIfNecessary(descriptor, beanName);
        }

        @Override
        public Class<?> getLazyResolutionProxyClass(DependencyDescriptor descriptor, String beanName) {
            return delegate.getLazyResolutionProxyClass(descriptor, beanName);
        }

        @Override
        public AutowireCandidateResolver cloneIfNecessary() {
            return new Resolver(delegate.cloneIfNecessary(), beans);
        }
    }
}
