package dev.controllerobservability.autoconfigure.strictness;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.Name;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.ResolvableType;

import dev.controllerobservability.internal.settings.ClosestName;
import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties;

/**
 * The property names {@link ControllerObservabilityProperties} binds, walked along a
 * name's elements as Spring Boot's binder walks them: a record's components, a map's keys
 * (one element for a map of records or maps, any rest for a map of values), a list's
 * indexes. Finds the first element that binds to nothing, the names known at that place
 * and the closest of them, so every "unknown property" message reads alike whatever the
 * property source.
 */
final class PropertyTree {

	static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName
		.of(ControllerObservabilityProperties.PREFIX);

	private static final ResolvableType ROOT = ResolvableType.forClass(ControllerObservabilityProperties.class);

	private PropertyTree() {
	}

	/**
	 * Walks the elements of a name below {@code controller.observability}.
	 * @param elements the elements, lower case; list indexes as digits
	 * @param joined whether one property may span several elements, as in environment
	 * variables where {@code DURATION_BUCKETS} is {@code duration-buckets}
	 * @return the first element that binds to nothing, or {@code null} when the name
	 * binds
	 */
	static Unknown find(List<String> elements, boolean joined) {
		return walk(ROOT, elements, 0, joined, false);
	}

	/**
	 * The map keys along a name, as the binder reads them: one element for a map of
	 * records or maps, the rest of the name for a map of values. For
	 * {@code alerts.Name.labels.team} they are {@code [1, 2)} (the alert name) and
	 * {@code [3, 4)} (the label key).
	 * @param elements the elements below {@code controller.observability}
	 * @return each key's first element and the element after its last
	 */
	static List<int[]> mapKeys(List<String> elements) {
		List<int[]> keys = new ArrayList<>();
		ResolvableType type = ROOT;
		int i = 0;
		while (i < elements.size()) {
			Class<?> owner = type.resolve(Object.class);
			if (Map.class.isAssignableFrom(owner)) {
				type = type.asMap().getGeneric(1);
				int end = isNode(type) ? i + 1 : elements.size();
				keys.add(new int[] { i, end });
				i = end;
			}
			else if (Collection.class.isAssignableFrom(owner)) {
				type = type.asCollection().getGeneric(0);
				i++;
			}
			else {
				ResolvableType property = isNode(type) ? property(owner, normalized(elements.get(i))) : null;
				if (property == null) {
					break;
				}
				type = property;
				i++;
			}
		}
		return keys;
	}

	/**
	 * A name as written in a property source, when it is below
	 * {@code controller.observability}.
	 * @param written the name as written
	 * @return the name, or {@code null} for a name of something else
	 */
	static @Nullable ConfigurationPropertyName below(String written) {
		if (!written.regionMatches(true, 0, ControllerObservabilityProperties.PREFIX, 0,
				ControllerObservabilityProperties.PREFIX.length())) {
			return null;
		}
		ConfigurationPropertyName name = ConfigurationPropertyName.adapt(written, '.');
		return PREFIX.isAncestorOf(name) ? name : null;
	}

	/**
	 * The elements of a name below the prefix, lower case, list indexes as digits.
	 * @param name a name below {@code controller.observability}
	 * @return the elements
	 */
	static List<String> elements(ConfigurationPropertyName name) {
		List<String> elements = new ArrayList<>();
		for (int i = PREFIX.getNumberOfElements(); i < name.getNumberOfElements(); i++) {
			elements.add(name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL).toLowerCase(Locale.ROOT));
		}
		return elements;
	}

	/**
	 * A name with map keys as written; the canonical form drops their underscores.
	 * @param name the name
	 * @return the name as written, list indexes in brackets
	 */
	static String asWritten(ConfigurationPropertyName name) {
		StringBuilder written = new StringBuilder();
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			String element = name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL);
			if (name.isNumericIndex(i)) {
				written.append('[').append(element).append(']');
			}
			else {
				written.append((i > 0) ? "." : "").append(element);
			}
		}
		return written.toString();
	}

	private static Unknown walk(ResolvableType type, List<String> elements, int index, boolean joined, boolean inMap) {
		if (index == elements.size()) {
			return null;
		}
		Class<?> owner = type.resolve(Object.class);
		if (Map.class.isAssignableFrom(owner)) {
			ResolvableType value = type.asMap().getGeneric(1);
			return isNode(value) ? walk(value, elements, index + 1, joined, true) : null;
		}
		if (Collection.class.isAssignableFrom(owner) || owner.isArray()) {
			if (!isIndex(elements.get(index))) {
				return new Unknown(index, List.of(), null, inMap, null);
			}
			ResolvableType element = owner.isArray() ? type.getComponentType() : type.asCollection().getGeneric(0);
			return isNode(element) ? walk(element, elements, index + 1, joined, inMap)
					: tail(elements, index + 1, inMap);
		}
		if (!isNode(type)) {
			return new Unknown(index, List.of(), null, inMap, null);
		}
		Unknown deepest = null;
		StringBuilder span = new StringBuilder();
		int last = joined ? elements.size() - 1 : index;
		for (int end = index; end <= last; end++) {
			span.append(normalized(elements.get(end)));
			ResolvableType propertyType = property(owner, span.toString());
			if (propertyType != null && end > index && Map.class.isAssignableFrom(propertyType.resolve(Object.class))) {
				// The binder finds map entries only under the map's canonical name, as
				// one word.
				return new Unknown(index, List.of(), null, inMap, new int[] { index, end + 1 });
			}
			if (propertyType != null) {
				Unknown unknown = walk(propertyType, elements, end + 1, joined, inMap);
				if (unknown == null) {
					return null;
				}
				deepest = (deepest == null || unknown.index() > deepest.index()) ? unknown : deepest;
			}
		}
		if (deepest != null) {
			return deepest;
		}
		List<String> known = knownNames(owner);
		return new Unknown(index, known, closest(elements, index, joined, known), inMap, null);
	}

	private static Unknown tail(List<String> elements, int index, boolean inMap) {
		return (index == elements.size()) ? null : new Unknown(index, List.of(), null, inMap, null);
	}

	/** Whether a type has properties of its own, rather than being a value. */
	private static boolean isNode(ResolvableType type) {
		Class<?> resolved = type.resolve(Object.class);
		return Map.class.isAssignableFrom(resolved) || Collection.class.isAssignableFrom(resolved) || resolved.isArray()
				|| !(resolved.isPrimitive() || resolved.isEnum() || resolved.getName().startsWith("java."));
	}

	private static boolean isIndex(String element) {
		return !element.isEmpty() && element.chars().allMatch(Character::isDigit);
	}

	private static ResolvableType property(Class<?> owner, String normalizedName) {
		return properties(owner).entrySet()
			.stream()
			.filter((property) -> normalized(property.getKey()).equals(normalizedName))
			.map(Map.Entry::getValue)
			.findFirst()
			.orElse(null);
	}

	/**
	 * The properties a record binds through its constructor, by camel-case name (as
	 * renamed by {@link Name}); every properties class of the starter is a record.
	 * @param owner a properties class
	 * @return each property's type, in declaration order; none for any other class
	 */
	private static Map<String, ResolvableType> properties(Class<?> owner) {
		Map<String, ResolvableType> properties = new LinkedHashMap<>();
		if (!owner.isRecord()) {
			return properties;
		}
		RecordComponent[] components = owner.getRecordComponents();
		Constructor<?> constructor = BeanUtils.getResolvableConstructor(owner);
		for (int i = 0; i < components.length; i++) {
			Name name = constructor.getParameters()[i].getAnnotation(Name.class);
			properties.put((name != null) ? name.value() : components[i].getName(),
					ResolvableType.forConstructorParameter(constructor, i));
		}
		return properties;
	}

	/** An element as the binder compares it: lower case, without '-' and '_'. */
	private static String normalized(String element) {
		return element.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
	}

	/**
	 * Property names known at the properties class {@code owner}, in kebab case.
	 * @param owner a properties class
	 * @return the names, sorted
	 */
	static List<String> knownNames(Class<?> owner) {
		return properties(owner).keySet().stream().map(PropertyTree::dashed).sorted().toList();
	}

	private static String dashed(String camelCase) {
		return camelCase.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
	}

	private static String closest(List<String> elements, int index, boolean joined, List<String> known) {
		String best = null;
		int bestDistance = Integer.MAX_VALUE;
		StringBuilder written = new StringBuilder();
		int last = joined ? elements.size() - 1 : index;
		for (int end = index; end <= last; end++) {
			written.append((end > index) ? "-" : "").append(elements.get(end).toLowerCase(Locale.ROOT));
			String candidate = ClosestName.of(written.toString(), known);
			if (candidate != null) {
				int distance = ClosestName.distance(written.toString(), candidate);
				if (distance < bestDistance) {
					best = candidate;
					bestDistance = distance;
				}
			}
		}
		return best;
	}

	/**
	 * The first element of a name that binds to nothing.
	 *
	 * @param index its index among the elements below {@code controller.observability}
	 * @param known the property names known at that place, empty below a value
	 * @param closest the known name closest to what was written, or {@code null}
	 * @param inMap whether the name passes through a map key before that element
	 * @param splitMap first and after-last element of a map property spelt in several
	 * elements, which the binder does not read, or {@code null}
	 */
	record Unknown(int index, List<String> known, String closest, boolean inMap, int[] splitMap) {

		/**
		 * Why the name binds to nothing, the same in every property source.
		 * @param element the element as written
		 * @return the reason, listing the names known at that place
		 */
		String reason(String element) {
			return "the starter has no property '" + element + "' here" + (this.known.isEmpty() ? ""
					: "; the properties at this place are " + String.join(", ", this.known));
		}

		/**
		 * The closest known name as a question, or nothing.
		 * @return such as {@code Did you mean 'namespace'? }
		 */
		String suggestion() {
			return (this.closest != null) ? "Did you mean '" + this.closest + "'? " : "";
		}
	}

}
