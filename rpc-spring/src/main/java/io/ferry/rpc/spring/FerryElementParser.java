package io.ferry.rpc.spring;

import io.ferry.rpc.GenericService;
import io.ferry.rpc.RpcExport;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionBuilder;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.xml.BeanDefinitionParser;
import org.springframework.beans.factory.xml.ParserContext;
import org.springframework.context.annotation.ClassPathBeanDefinitionScanner;
import org.springframework.core.io.Resource;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.StringUtils;
import org.w3c.dom.Element;

import java.util.List;

/**
 * Turns {@code ferry:} elements into bean definitions. The elements' meaning is Ferry's: each file that holds any
 * becomes one {@link XmlFileDeclaration}, read by Ferry's own reader when the context's Ferry is built, so Spring
 * and {@code Ferry.fromXml} take the same attributes with the same checks and messages. Spring gets what it needs
 * beyond that: a bean of the interface's type per {@code <ferry:reference>}, and {@code @RpcExport} classes of the
 * packages {@code <ferry:annotation>} names as beans.
 */
final class FerryElementParser implements BeanDefinitionParser {
    /** The top-level elements Spring hands to this parser; {@code <ferry:method>} is read with its parent. */
    static final List<String> ELEMENTS = List.of("application", "registry", "protocol", "ssl", "provider",
            "consumer", "service", "reference", "annotation");

    @Override
    public BeanDefinition parse(Element element, ParserContext context) {
        BeanDefinitionRegistry registry = context.getRegistry();
        FerryBeans.registerCommon(registry);
        declareFile(context.getReaderContext().getResource(), registry);
        switch (element.getLocalName()) {
            case "reference" -> reference(element, context);
            case "annotation" -> scan(element, context);
            default -> {
                // read from the file by Ferry's reader
            }
        }
        return null;
    }

    private static void declareFile(Resource resource, BeanDefinitionRegistry registry) {
        String name = XmlFileDeclaration.class.getName() + "#" + resource.getDescription();
        if (!registry.containsBeanDefinition(name)) {
            AbstractBeanDefinition file = BeanDefinitionBuilder.genericBeanDefinition(XmlFileDeclaration.class)
                    .addConstructorArgValue(resource).setRole(BeanDefinition.ROLE_INFRASTRUCTURE).getBeanDefinition();
            registry.registerBeanDefinition(name, file);
        }
    }

    /** A bean named by the reference's id, of its interface's type, that other beans inject. */
    private static void reference(Element element, ParserContext context) {
        String id = element.getAttribute("id").strip();
        String type = element.getAttribute("interface").strip();
        if (id.isEmpty() || type.isEmpty()) {
            return; // Ferry's reader names what is missing, with the line
        }
        // a generic reference's interface need not be on the class path: its bean is a GenericService
        boolean generic = element.getAttribute("generic").strip().equalsIgnoreCase("true");
        FerryBeans.registerReference(context.getRegistry(), id, generic ? GenericService.class.getName() : type,
                context.getReaderContext().getBeanClassLoader());
    }

    /** {@code <ferry:annotation package="a.b, c.d">}: the {@code @RpcExport} classes there become beans. */
    private static void scan(Element element, ParserContext context) {
        String packages = element.getAttribute("package");
        ClassPathBeanDefinitionScanner scanner = new ClassPathBeanDefinitionScanner(context.getRegistry(), false,
                context.getReaderContext().getEnvironment(), context.getReaderContext().getResourceLoader());
        scanner.addIncludeFilter(new AnnotationTypeFilter(RpcExport.class));
        scanner.scan(StringUtils.tokenizeToStringArray(
                context.getReaderContext().getEnvironment().resolveRequiredPlaceholders(packages), ",; \t\n"));
    }
}
