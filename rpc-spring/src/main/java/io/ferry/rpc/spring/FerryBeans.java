package io.ferry.rpc.spring;

import io.ferry.rpc.config.Ferry;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionBuilder;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.util.ClassUtils;

/**
 * The beans every context with Ferry in it has: the lifecycle, the Ferry itself, and the annotations' processors (for
 * fields and exported beans, and for parameters).
 */
public final class FerryBeans {
    /** The Ferry's bean name: inject {@link Ferry} by type, or get it by this name. */
    public static final String FERRY = "ferry";

    private FerryBeans() {
    }

    /**
     * Registers a reference a declaration names (its id, and the type its proxy implements: its interface, or
     * {@code GenericService} for a generic one) as a bean of that type under its id: the context's Ferry's
     * reference, made when the bean is first wanted.
     */
    public static void registerReference(BeanDefinitionRegistry registry, String id, String interfaceName,
                                         ClassLoader loader) {
        AbstractBeanDefinition reference = BeanDefinitionBuilder.genericBeanDefinition(ReferenceFactoryBean.class)
                .addConstructorArgValue(id).addConstructorArgValue(interfaceName).getBeanDefinition();
        if (ClassUtils.isPresent(interfaceName, loader)) {
            // lets the context match the bean by type before creating it (autowiring, getBeanNamesForType)
            reference.setAttribute(FactoryBean.OBJECT_TYPE_ATTRIBUTE, ClassUtils.resolveClassName(interfaceName,
                    loader));
        }
        registry.registerBeanDefinition(id, reference);
    }

    /** Registers them in {@code registry} unless they are there already. */
    public static void registerCommon(BeanDefinitionRegistry registry) {
        if (registry.containsBeanDefinition(FerryLifecycle.BEAN_NAME)) {
            return;
        }
        RootBeanDefinition lifecycle = new RootBeanDefinition(FerryLifecycle.class);
        lifecycle.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
        registry.registerBeanDefinition(FerryLifecycle.BEAN_NAME, lifecycle);
        if (!registry.containsBeanDefinition(FERRY)) {
            RootBeanDefinition ferry = new RootBeanDefinition(Ferry.class);
            ferry.setFactoryBeanName(FerryLifecycle.BEAN_NAME);
            ferry.setFactoryMethodName("ferry");
            ferry.setLazyInit(true);
            registry.registerBeanDefinition(FERRY, ferry);
        }
        RootBeanDefinition annotations = new RootBeanDefinition(RpcAnnotationProcessor.class);
        annotations.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
        registry.registerBeanDefinition(RpcAnnotationProcessor.class.getName(), annotations);
        RootBeanDefinition parameters = new RootBeanDefinition(RpcReferenceParameters.class);
        parameters.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
        registry.registerBeanDefinition(RpcReferenceParameters.class.getName(), parameters);
    }
}
