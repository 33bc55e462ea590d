package io.ferry.rpc.remoting.internal.serialize.fast;

import com.alibaba.com.caucho.hessian.io.Serializer;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import com.alibaba.com.caucho.hessian.io.UnsafeSerializer;
import com.alibaba.com.caucho.hessian.io.java8.DurationHandle;
import com.alibaba.com.caucho.hessian.io.java8.DurationSerializer;
import com.alibaba.com.caucho.hessian.io.java8.InstantHandle;
import com.alibaba.com.caucho.hessian.io.java8.InstantSerializer;
import com.alibaba.com.caucho.hessian.io.java8.LocalDateHandle;
import com.alibaba.com.caucho.hessian.io.java8.LocalDateSerializer;
import com.alibaba.com.caucho.hessian.io.java8.LocalDateTimeHandle;
import com.alibaba.com.caucho.hessian.io.java8.LocalDateTimeSerializer;
import com.alibaba.com.caucho.hessian.io.java8.LocalTimeHandle;
import com.alibaba.com.caucho.hessian.io.java8.LocalTimeSerializer;
import com.alibaba.com.caucho.hessian.io.java8.MonthDayHandle;
import com.alibaba.com.caucho.hessian.io.java8.MonthDaySerializer;
import com.alibaba.com.caucho.hessian.io.java8.OffsetDateTimeHandle;
import com.alibaba.com.caucho.hessian.io.java8.OffsetDateTimeSerializer;
import com.alibaba.com.caucho.hessian.io.java8.OffsetTimeHandle;
import com.alibaba.com.caucho.hessian.io.java8.OffsetTimeSerializer;
import com.alibaba.com.caucho.hessian.io.java8.PeriodHandle;
import com.alibaba.com.caucho.hessian.io.java8.PeriodSerializer;
import com.alibaba.com.caucho.hessian.io.java8.YearHandle;
import com.alibaba.com.caucho.hessian.io.java8.YearMonthHandle;
import com.alibaba.com.caucho.hessian.io.java8.YearMonthSerializer;
import com.alibaba.com.caucho.hessian.io.java8.YearSerializer;
import com.alibaba.com.caucho.hessian.io.java8.ZoneIdHandle;
import com.alibaba.com.caucho.hessian.io.java8.ZoneIdSerializer;
import com.alibaba.com.caucho.hessian.io.java8.ZoneOffsetHandle;
import com.alibaba.com.caucho.hessian.io.java8.ZoneOffsetSerializer;
import com.alibaba.com.caucho.hessian.io.java8.ZonedDateTimeHandle;
import com.alibaba.com.caucho.hessian.io.java8.ZonedDateTimeSerializer;

import java.lang.reflect.Field;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The {@link TimePlan} of each of hessian-lite's {@code java.time} serializers. Each writes a handle of the same
 * shape: here its fields as UnsafeSerializer orders them (their declared order reversed, {@code java.lang} types
 * before others), each with the call its field type gets, from the getter the handle's constructor uses. A nested
 * value (the {@code LocalDate} of a {@code LocalDateTime}...) goes through {@code writeObject}, as its field does.
 *
 * <p>A plan is made only where the layout written here is still the handle's (its fields by {@link FieldOrder},
 * with their types) and the factory writes the handle with UnsafeSerializer; otherwise hessian-lite's serializer
 * keeps the value.
 */
final class TimePlans {
    /** The handle class, its fields as "Type name" in wire order, and their writes. */
    private record Layout(Class<?> handle, String fields, WritePlan writes) {
    }

    private static final Map<Class<?>, Layout> BY_SERIALIZER = Map.ofEntries(
            Map.entry(LocalDateSerializer.class, new Layout(LocalDateHandle.class, "int day, int month, int year",
                    (v, out) -> {
                        LocalDate date = (LocalDate) v;
                        out.writeInt(date.getDayOfMonth());
                        out.writeInt(date.getMonthValue());
                        out.writeInt(date.getYear());
                    })),
            Map.entry(LocalTimeSerializer.class, new Layout(LocalTimeHandle.class,
                    "int nano, int second, int minute, int hour", (v, out) -> {
                        LocalTime time = (LocalTime) v;
                        out.writeInt(time.getNano());
                        out.writeInt(time.getSecond());
                        out.writeInt(time.getMinute());
                        out.writeInt(time.getHour());
                    })),
            Map.entry(LocalDateTimeSerializer.class, new Layout(LocalDateTimeHandle.class,
                    "LocalTime time, LocalDate date", (v, out) -> {
                        LocalDateTime dateTime = (LocalDateTime) v;
                        out.writeObject(dateTime.toLocalTime());
                        out.writeObject(dateTime.toLocalDate());
                    })),
            Map.entry(InstantSerializer.class, new Layout(InstantHandle.class, "int nanos, long seconds",
                    (v, out) -> {
                        Instant instant = (Instant) v;
                        out.writeInt(instant.getNano());
                        out.writeLong(instant.getEpochSecond());
                    })),
            Map.entry(DurationSerializer.class, new Layout(DurationHandle.class, "int nanos, long seconds",
                    (v, out) -> {
                        Duration duration = (Duration) v;
                        out.writeInt(duration.getNano());
                        out.writeLong(duration.getSeconds());
                    })),
            Map.entry(ZonedDateTimeSerializer.class, new Layout(ZonedDateTimeHandle.class,
                    "ZoneOffset offset, LocalDateTime dateTime, String zoneId", (v, out) -> {
                        ZonedDateTime zoned = (ZonedDateTime) v;
                        out.writeObject(zoned.getOffset());
                        out.writeObject(zoned.toLocalDateTime());
                        out.writeString(zoned.getZone().getId());
                    })),
            Map.entry(OffsetDateTimeSerializer.class, new Layout(OffsetDateTimeHandle.class,
                    "ZoneOffset offset, LocalDateTime dateTime", (v, out) -> {
                        OffsetDateTime dateTime = (OffsetDateTime) v;
                        out.writeObject(dateTime.getOffset());
                        out.writeObject(dateTime.toLocalDateTime());
                    })),
            Map.entry(OffsetTimeSerializer.class, new Layout(OffsetTimeHandle.class,
                    "ZoneOffset zoneOffset, LocalTime localTime", (v, out) -> {
                        OffsetTime time = (OffsetTime) v;
                        out.writeObject(time.getOffset());
                        out.writeObject(time.toLocalTime());
                    })),
            Map.entry(ZoneOffsetSerializer.class, new Layout(ZoneOffsetHandle.class, "int seconds",
                    (v, out) -> out.writeInt(((ZoneOffset) v).getTotalSeconds()))),
            // ZoneId's subclass ZoneRegion (Europe/Paris...); hessian-lite picks this serializer for any ZoneId
            Map.entry(ZoneIdSerializer.class, new Layout(ZoneIdHandle.class, "String zoneId",
                    (v, out) -> out.writeString(((ZoneId) v).getId()))),
            Map.entry(PeriodSerializer.class, new Layout(PeriodHandle.class, "int days, int months, int years",
                    (v, out) -> {
                        Period period = (Period) v;
                        out.writeInt(period.getDays());
                        out.writeInt(period.getMonths());
                        out.writeInt(period.getYears());
                    })),
            Map.entry(YearSerializer.class, new Layout(YearHandle.class, "int year",
                    (v, out) -> out.writeInt(((Year) v).getValue()))),
            Map.entry(YearMonthSerializer.class, new Layout(YearMonthHandle.class, "int month, int year",
                    (v, out) -> {
                        YearMonth yearMonth = (YearMonth) v;
                        out.writeInt(yearMonth.getMonthValue());
                        out.writeInt(yearMonth.getYear());
                    })),
            Map.entry(MonthDaySerializer.class, new Layout(MonthDayHandle.class, "int day, int month",
                    (v, out) -> {
                        MonthDay monthDay = (MonthDay) v;
                        out.writeInt(monthDay.getDayOfMonth());
                        out.writeInt(monthDay.getMonthValue());
                    })));

    private TimePlans() {
    }

    /** The plan for values {@code factory} writes with {@code stock}, or null if it is none of these. */
    static WritePlan forSerializer(Serializer stock, SerializerFactory factory) {
        Layout layout = BY_SERIALIZER.get(stock.getClass());
        if (layout == null || !writesWithUnsafe(factory, layout.handle())) {
            return null;
        }
        List<Field> fields = FieldOrder.of(layout.handle());
        String actual = fields.stream().map(f -> f.getType().getSimpleName() + " " + f.getName())
                .collect(Collectors.joining(", "));
        if (!actual.equals(layout.fields())) {
            return null; // another hessian-lite's handle: its own serializer knows it
        }
        String[] names = fields.stream().map(Field::getName).toArray(String[]::new);
        return new TimePlan(layout.handle().getName(), names, layout.writes(), stock);
    }

    private static boolean writesWithUnsafe(SerializerFactory factory, Class<?> handle) {
        try {
            return factory.getObjectSerializer(handle).getClass() == UnsafeSerializer.class;
        } catch (Exception | LinkageError e) {
            return false;
        }
    }
}
