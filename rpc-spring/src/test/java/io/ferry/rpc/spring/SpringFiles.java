package io.ferry.rpc.spring;

/** Spring XML files written in a test: one {@code <beans>} root with Spring's and Ferry's schemas, for every test. */
final class SpringFiles {
    private static final String HEADER = """
            <beans xmlns="http://www.springframework.org/schema/beans"
                   xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                   xmlns:ferry="http://ferry.io/schema/ferry"
                   xsi:schemaLocation="http://www.springframework.org/schema/beans
                       https://www.springframework.org/schema/beans/spring-beans.xsd
                       http://ferry.io/schema/ferry http://ferry.io/schema/ferry.xsd">
            """;

    private SpringFiles() {
    }

    /** {@code elements} (beans and ferry: elements, one per line) in a file's {@code <beans>} root. */
    static String beans(String elements) {
        return HEADER + elements + "</beans>\n";
    }
}
