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
 * The starter's default web exposure ({@code health,prometheus}), given only while no
 * other property source of the environment sets
 * {@code management.endpoints.web.exposure.include} and the starter is enabled.
 * <p>
 * The answer is worked out at every lookup, not once when the source is added: sources
 * that arrive later ({@code @PropertySource} files, read while configuration classes are
 * parsed, and {@code SpringApplication.setDefaultProperties}, moved behind every other
 * source) would otherwise lose to a default that was decided before they existed. Any
 * form of the property counts: relaxed names, environment variables, indexed list
 * entries, placeholders.
 */
final class DefaultExposurePropertySource extends EnumerablePropertySource<MutablePropertySources> {

	static final String NAME = "controllerObservabilityDefaults";

	static final String EXPOSURE_PROPERTY = "management.endpoints.web.exposure.include";

	static final String EXPOSED_ENDPOINTS = "health,prometheus";

	private static final String ENABLED_PROPERTY = ControllerObservabilityProperties.PREFIX + ".enabled";

	private static final String[] NAMES = { EXPOSURE_PROPERTY };

	private static final String[] NO_NAMES = {};

	private final Binder others;

	DefaultExposurePropertySource(MutablePropertySources sources) {
		super(NAME, sources);
		// A live view: every lookup sees the sources present at that moment, minus this
		// one and Boot's attached view of all of them (which includes this one).
		Iterable<PropertySource<?>> others = () -> sources.stream()
			.filter((source) -> source != this && !ConfigurationPropertySources.isAttachedConfigurationPropertySource(source))
			.iterator();
		this.others = new Binder(ConfigurationPropertySources.from(others),
				new PropertySourcesPlaceholdersResolver(others));
	}

	@Override
	public String[] getPropertyNames() {
		return applies() ? NAMES.clone() : NO_NAMES;
	}

	@Override
	public Object getProperty(String name) {
		return (EXPOSURE_PROPERTY.equals(name) && applies()) ? EXPOSED_ENDPOINTS : null;
	}

	private boolean applies() {
		return !this.others.bind(EXPOSURE_PROPERTY, Bindable.listOf(String.class)).isBound() && enabled();
	}

	private boolean enabled() {
		try {
			return this.others.bind(ENABLED_PROPERTY, Boolean.class).orElse(true);
		}
		catch (BindException ex) {
			// Not a boolean: binding the starter's properties reports it with a failure analysis.
			return true;
		}
	}

}
