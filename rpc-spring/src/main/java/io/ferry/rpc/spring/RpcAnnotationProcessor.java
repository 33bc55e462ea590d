package io.ferry.rpc.spring;

import io.ferry.rpc.RpcExport;
import io.ferry.rpc.RpcReference;
import io.ferry.rpc.config.ServiceConfig;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.PropertyValues;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.InstantiationAwareBeanPostProcessor;
import org.springframework.util.ReflectionUtils;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ferry's annotations on Spring beans: {@link RpcReference} fields are set while the bean's properties are (before
 * any init method, {@code @PostConstruct} included), each to the context's reference for that interface and
 * annotation; beans of {@link RpcExport} classes, or proxies of such beans (Spring AOP), are exported when the
 * context starts. Parameters are {@link RpcReferenceParameters}' part.
 */
final class RpcAnnotationProcessor implements InstantiationAwareBeanPostProcessor, BeanFactoryAware {
    private final Map<Class<?>, List<Field>> referenceFields = new ConcurrentHashMap<>();
    private BeanFactory beans;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beans = beanFactory;
    }

    @Override
    public PropertyValues postProcessProperties(PropertyValues values, Object bean, String name) {
        List<Field> fields = referenceFields.computeIfAbsent(bean.getClass(), RpcAnnotationProcessor::fieldsOf);
        for (Field field : fields) {
            String where = field.getDeclaringClass().getName() + "." + field.getName();
            if (Modifier.isStatic(field.getModifiers())) {
                throw new BeanCreationException(name, "@RpcReference " + where + " (expected: an instance field)");
            }
            Object reference = lifecycle().annotatedReference(field.getAnnotation(RpcReference.class),
                    field.getType(), where);
            ReflectionUtils.makeAccessible(field);
            ReflectionUtils.setField(field, bean, reference);
        }
        return values;
    }

    private static List<Field> fieldsOf(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        ReflectionUtils.doWithFields(type, fields::add, field -> field.isAnnotationPresent(RpcReference.class));
        return List.copyOf(fields);
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String name) {
        // a proxy (AOP, @Transactional, ...) carries no annotation of its own: the class it proxies does
        Class<?> target = AopUtils.getTargetClass(bean);
        if (target.isAnnotationPresent(RpcExport.class)) {
            lifecycle().exportOnStart(ServiceConfig.fromAnnotation(target, bean).build());
        }
        return bean;
    }

    private FerryLifecycle lifecycle() {
        return beans.getBean(FerryLifecycle.BEAN_NAME, FerryLifecycle.class);
    }
}
