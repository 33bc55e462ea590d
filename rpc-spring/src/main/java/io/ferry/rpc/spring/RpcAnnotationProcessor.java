package io.ferry.rpc.spring;

import io.ferry.rpc.RpcExport;
import io.ferry.rpc.RpcReference;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.util.ReflectionUtils;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Ferry's annotations on Spring beans: {@link RpcReference} fields get their references before the bean's init
 * methods run, and beans of {@link RpcExport} classes are exported when the context starts.
 */
final class RpcAnnotationProcessor implements BeanPostProcessor, BeanFactoryAware {
    private BeanFactory beans;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beans = beanFactory;
    }

    @Override
    public Object postProcessBeforeInitialization(Object bean, String name) {
        if (hasReferenceFields(bean.getClass())) {
            lifecycle().ferry().inject(bean, null);
        }
        return bean;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String name) {
        if (AopUtils.getTargetClass(bean).isAnnotationPresent(RpcExport.class)) {
            lifecycle().exportOnStart(bean);
        }
        return bean;
    }

    private FerryLifecycle lifecycle() {
        return beans.getBean(FerryLifecycle.BEAN_NAME, FerryLifecycle.class);
    }

    private static boolean hasReferenceFields(Class<?> type) {
        AtomicBoolean found = new AtomicBoolean();
        ReflectionUtils.doWithFields(type, field -> found.set(true),
                field -> field.isAnnotationPresent(RpcReference.class));
        return found.get();
    }
}
