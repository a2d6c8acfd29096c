package dev.controllerobservability.internal.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Finds public API that names an internal type: a public or protected member, supertype
 * or type bound of a public type outside the {@code internal} packages that mentions a
 * type from an {@code internal} package. Such an API makes users depend on what may
 * change in any release. Example, in a module's tests:
 *
 * <pre>{@code
 * assertThat(InternalTypeLeaks.in(Path.of("target/classes"))).isEmpty();
 * }</pre>
 */
public final class InternalTypeLeaks {

	private final Set<String> leaks = new TreeSet<>();

	private InternalTypeLeaks() {
	}

	/**
	 * Finds the leaks among the classes compiled into a directory, loaded through this
	 * thread's context class loader.
	 * @param classesDirectory a directory such as {@code target/classes}
	 * @return one line per leak, such as
	 * {@code dev.example.Api#failures() mentions dev.example.internal.Failures}, sorted
	 */
	public static List<String> in(Path classesDirectory) {
		InternalTypeLeaks check = new InternalTypeLeaks();
		for (Class<?> type : classes(classesDirectory)) {
			if (isApi(type)) {
				check.type(type);
			}
		}
		return List.copyOf(check.leaks);
	}

	static boolean isInternal(Class<?> type) {
		String name = type.getPackageName();
		return name.endsWith(".internal") || name.contains(".internal.");
	}

	private static boolean isApi(Class<?> type) {
		for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
			if (!Modifier.isPublic(c.getModifiers()) || c.isAnonymousClass() || c.isLocalClass()) {
				return false;
			}
		}
		return !type.isSynthetic() && !isInternal(type);
	}

	private static List<Class<?>> classes(Path directory) {
		ClassLoader loader = Thread.currentThread().getContextClassLoader();
		try (Stream<Path> files = Files.walk(directory)) {
			List<Class<?>> classes = new ArrayList<>();
			for (Path file : files.filter((path) -> path.toString().endsWith(".class")).sorted().toList()) {
				String relative = directory.relativize(file).toString();
				String name = relative.substring(0, relative.length() - ".class".length())
					.replace(file.getFileSystem().getSeparator(), ".");
				if (!name.endsWith("package-info") && !name.endsWith("module-info")) {
					classes.add(Class.forName(name, false, loader));
				}
			}
			return classes;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException("Compiled class not on the class path: " + ex.getMessage(), ex);
		}
	}

	private void type(Class<?> type) {
		String where = type.getName();
		mentions(where + " (supertype)", type.getGenericSuperclass());
		for (Type supertype : type.getGenericInterfaces()) {
			mentions(where + " (supertype)", supertype);
		}
		for (TypeVariable<?> variable : type.getTypeParameters()) {
			bounds(where + " (type parameter)", variable);
		}
		for (Constructor<?> constructor : type.getDeclaredConstructors()) {
			executable(where + "#<init>", constructor);
		}
		for (Method method : type.getDeclaredMethods()) {
			if (!method.isBridge() && isVisible(method.getModifiers())) {
				executable(where + "#" + method.getName(), method);
				mentions(where + "#" + method.getName(), method.getGenericReturnType());
			}
		}
		for (Field field : type.getDeclaredFields()) {
			if (isVisible(field.getModifiers()) && !field.isSynthetic()) {
				mentions(where + "." + field.getName(), field.getGenericType());
			}
		}
	}

	private void executable(String where, Executable executable) {
		if (!isVisible(executable.getModifiers()) || executable.isSynthetic()) {
			return;
		}
		for (Type parameter : executable.getGenericParameterTypes()) {
			mentions(where, parameter);
		}
		for (Type exception : executable.getGenericExceptionTypes()) {
			mentions(where, exception);
		}
		for (TypeVariable<?> variable : executable.getTypeParameters()) {
			bounds(where, variable);
		}
	}

	private static boolean isVisible(int modifiers) {
		return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
	}

	private void bounds(String where, TypeVariable<?> variable) {
		for (Type bound : variable.getBounds()) {
			mentions(where, bound);
		}
	}

	private void mentions(String where, Type type) {
		mentions(where, type, new HashSet<>());
	}

	private void mentions(String where, Type type, Set<Type> seen) {
		if (type == null || !seen.add(type)) {
			return;
		}
		if (type instanceof Class<?> c) {
			while (c.isArray()) {
				c = c.getComponentType();
			}
			if (isInternal(c)) {
				this.leaks.add(where + " mentions " + c.getName());
			}
		}
		else if (type instanceof ParameterizedType parameterized) {
			mentions(where, parameterized.getRawType(), seen);
			mentions(where, parameterized.getOwnerType(), seen);
			for (Type argument : parameterized.getActualTypeArguments()) {
				mentions(where, argument, seen);
			}
		}
		else if (type instanceof WildcardType wildcard) {
			for (Type bound : wildcard.getUpperBounds()) {
				mentions(where, bound, seen);
			}
			for (Type bound : wildcard.getLowerBounds()) {
				mentions(where, bound, seen);
			}
		}
		else if (type instanceof GenericArrayType array) {
			mentions(where, array.getGenericComponentType(), seen);
		}
		else if (type instanceof TypeVariable<?> variable) {
			for (Type bound : variable.getBounds()) {
				mentions(where, bound, seen);
			}
		}
	}

}
