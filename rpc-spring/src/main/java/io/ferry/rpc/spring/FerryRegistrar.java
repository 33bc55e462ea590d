package io.ferry.rpc.spring;

import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.type.AnnotationMetadata;

/** Registers {@link FerryBeans#registerCommon}'s beans for {@link EnableFerry} and Boot's auto-configuration. */
public final class FerryRegistrar implements ImportBeanDefinitionRegistrar {
    @Override
    public void registerBeanDefinitions(AnnotationMetadata importing, BeanDefinitionRegistry registry) {
        FerryBeans.registerCommon(registry);
    }
}
