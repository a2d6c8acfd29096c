package dev.controllerobservability.autoconfigure;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;

/**
 * The starter's defaults for Spring Boot properties, each given only while no other
 * property source of the environment sets that property and the starter is enabled:
 * <ul>
 * <li>{@code management.endpoints.web.exposure.include=health,prometheus}, so that
 * {@code /actuator/prometheus} answers with no other setting;</li>
 * <li>{@code io.prometheus.exporter.exemplarsOnAllMetricTypes=false} (through
 * {@code management.prometheus.metrics.export.properties}): Micrometer's default puts
 * exemplars on histograms' {@code _count} lines too, which OpenMetrics does not allow and
 * which makes Prometheus 2.x reject the whole scrape once tracing adds exemplars.
 * Exemplars stay on buckets and counters.</li>
 * <li>{@code management.otlp.metrics.export.base-time-unit=seconds}: controller timers
 * are described, bucketed and named in seconds, while Micrometer's OTLP registry exports
 * timers in milliseconds by default. A Prometheus ingesting OTLP would then name them
 * {@code _duration_milliseconds}, and the generated rules and dashboard would not
 * match.</li>
 * </ul>
 * <p>
 * The answer is worked out at every lookup, not once when the source is added: sources
 * that arrive later ({@code @PropertySource} files, read while configuration classes are
 * parsed, and {@code SpringApplication.setDefaultProperties}, moved behind every other
 * source) would otherwise lose to a default that was decided before they existed. Any
 * form of a property counts: relaxed names, environment variables, indexed list entries,
 * placeholders.
 */
final class StarterDefaultsPropertySource extends EnumerablePropertySource<MutablePropertySources> {

	static final String NAME = "controllerObservabilityDefaults";

	static final String EXPOSURE_PROPERTY = "management.endpoints.web.exposure.include";

	static final String EXPOSED_ENDPOINTS = "health,prometheus";

	static final String PROMETHEUS_PROPERTIES = "management.prometheus.metrics.export.properties";

	static final String EXEMPLARS_ON_ALL_METRIC_TYPES = "io.prometheus.exporter.exemplarsOnAllMetricTypes";

	static final String EXEMPLARS_PROPERTY = PROMETHEUS_PROPERTIES + "." + EXEMPLARS_ON_ALL_METRIC_TYPES;

	static final String OTLP_BASE_TIME_UNIT_PROPERTY = "management.otlp.metrics.export.base-time-unit";

	static final String OTLP_BASE_TIME_UNIT = "seconds";

	private static final String ENABLED_PROPERTY = ControllerObservabilityProperties.PREFIX + ".enabled";

	private static final String[] NAMES = { EXPOSURE_PROPERTY, EXEMPLARS_PROPERTY, OTLP_BASE_TIME_UNIT_PROPERTY };

	private final Binder others;

	StarterDefaultsPropertySource(MutablePropertySources sources) {
		super(NAME, sources);
		// A live view: every lookup sees the sources present at that moment, minus this
		// one and Boot's attached view of all of them (which includes this one).
		Iterable<PropertySource<?>> others = () -> sources.stream()
			.filter((source) -> source != this
					&& !ConfigurationPropertySources.isAttachedConfigurationPropertySource(source))
			.iterator();
		this.others = new Binder(ConfigurationPropertySources.from(others),
				new PropertySourcesPlaceholdersResolver(others));
	}

	/**
	 * The three names, always: Spring Boot asks for the names of a mutable source at
	 * every lookup through it, so working out which defaults apply here would bind the
	 * environment at each of the thousands of lookups of a start-up. A listed name whose
	 * default does not apply has no value ({@link #getProperty} decides), which Boot
	 * treats as absent.
	 */
	@Override
	public String[] getPropertyNames() {
		return NAMES.clone();
	}

	@Override
	public boolean containsProperty(String name) {
		return getProperty(name) != null;
	}

	@Override
	public Object getProperty(String name) {
		if (EXPOSURE_PROPERTY.equals(name)) {
			return (enabled() && !exposureSet()) ? EXPOSED_ENDPOINTS : null;
		}
		if (EXEMPLARS_PROPERTY.equals(name)) {
			return (enabled() && !exemplarsSet()) ? "false" : null;
		}
		if (OTLP_BASE_TIME_UNIT_PROPERTY.equals(name)) {
			return (enabled() && !otlpBaseTimeUnitSet()) ? OTLP_BASE_TIME_UNIT : null;
		}
		return null;
	}

	private boolean exposureSet() {
		return this.others.bind(EXPOSURE_PROPERTY, Bindable.listOf(String.class)).isBound();
	}

	private boolean otlpBaseTimeUnitSet() {
		return this.others.bind(OTLP_BASE_TIME_UNIT_PROPERTY, String.class).isBound();
	}

	private boolean exemplarsSet() {
		try {
			return this.others.bind(PROMETHEUS_PROPERTIES, Bindable.mapOf(String.class, String.class))
				.map((properties) -> properties.keySet()
					.stream()
					.anyMatch((key) -> key.equalsIgnoreCase(EXEMPLARS_ON_ALL_METRIC_TYPES)))
				.orElse(false);
		}
		catch (BindException ex) {
			// Boot reports a malformed value of its own property when it binds it.
			return true;
		}
	}

	private boolean enabled() {
		try {
			return this.others.bind(ENABLED_PROPERTY, Boolean.class).orElse(true);
		}
		catch (BindException ex) {
			// Not a boolean: binding the starter's properties reports it with a failure
			// analysis.
			return true;
		}
	}

}
