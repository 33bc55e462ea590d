package io.ferry.rpc.spring.boot;

import io.ferry.rpc.spring.FerryBeans;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;

import java.util.Map;

/**
 * The references {@code ferry.reference.<id>.*} declares, as beans of their interfaces' types under their ids, as a
 * {@code <ferry:reference>} is. The properties are read (and checked) here, when the context registers its beans, so
 * a wrong one stops the start before any bean is made.
 */
final class PropertyReferences implements BeanDefinitionRegistryPostProcessor {
    private final ConfigurableEnvironment environment;

    PropertyReferences(ConfigurableEnvironment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
        Map<String, String> references;
        try {
            references = new BootProperties(environment).read(environment::resolvePlaceholders).referenceTypes();
        } catch (IllegalArgumentException e) {
            // the start fails here: with the services' refs checked against the beans registered by now too, so
            // that they are not a round of their own (when nothing else is wrong, the Ferry's build checks them)
            if (registry instanceof org.springframework.beans.factory.config.ConfigurableListableBeanFactory beans) {
                BootProperties withBeans = new BootProperties(environment);
                withBeans.setBeanFactory(beans);
                withBeans.read(environment::resolvePlaceholders);
            }
            throw e;
        }
        ClassLoader loader = ClassUtils.getDefaultClassLoader();
        references.forEach((id, type) -> {
            if (!registry.containsBeanDefinition(id) && type != null) {
                FerryBeans.registerReference(registry, id, type, loader);
            }
        });
    }
}
