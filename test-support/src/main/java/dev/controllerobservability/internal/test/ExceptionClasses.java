package dev.controllerobservability.internal.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Exceptions of as many distinct classes as a test needs, named {@code Thrown0001},
 * {@code Thrown0002}, ...: what an operation that fails in many ways throws, to test how
 * many {@code error} label values it gets. Each class is a copy of one template class,
 * renamed in its bytes and defined by a class loader of its own.
 */
public final class ExceptionClasses {

	/** The length of the longest simple name, the longest label value kept by default. */
	public static final int LONGEST_NAME = 128;

	private ExceptionClasses() {
	}

	/**
	 * One exception of each of {@code count} distinct classes with short names.
	 * @param count how many classes, at most 9999
	 * @return the exceptions, of classes {@code Thrown0001} to {@code Thrown<count>}
	 */
	public static List<RuntimeException> distinct(int count) {
		return distinct(count, Thrown0000.class);
	}

	/**
	 * One exception of each of {@code count} distinct classes whose simple names are
	 * {@link #LONGEST_NAME} characters long.
	 * @param count how many classes, at most 9999
	 * @return the exceptions
	 */
	public static List<RuntimeException> withLongestNames(int count) {
		return distinct(count, longTemplate());
	}

	private static List<RuntimeException> distinct(int count, Class<?> templateClass) {
		if (count < 1 || count > 9999) {
			throw new IllegalArgumentException("count must be from 1 to 9999, got " + count);
		}
		String template = templateClass.getSimpleName();
		byte[] templateBytes = template(templateClass);
		List<RuntimeException> exceptions = new ArrayList<>(count);
		for (int i = 1; i <= count; i++) {
			String name = template.substring(0, template.length() - 4) + String.format("%04d", i);
			byte[] bytes = rename(templateBytes, template, name);
			String className = templateClass.getName().replace(template, name);
			Class<?> type = new Loader().define(className, bytes);
			try {
				Constructor<?> constructor = type.getDeclaredConstructor();
				constructor.setAccessible(true);
				exceptions.add((RuntimeException) constructor.newInstance());
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException("Could not instantiate " + className, ex);
			}
		}
		return exceptions;
	}

	private static Class<?> longTemplate() {
		return ThrownWithASimpleNameAsLongAsTheLongestLabelValueKeptxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx0000.class;
	}

	private static byte[] template(Class<?> templateClass) {
		String file = templateClass.getSimpleName() + ".class";
		try (InputStream in = templateClass.getResourceAsStream(file)) {
			if (in == null) {
				throw new IllegalStateException("Class file " + file + " not found");
			}
			return in.readAllBytes();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Replaces every occurrence of the template's name by one of the same length. */
	private static byte[] rename(byte[] template, String templateName, String name) {
		byte[] from = templateName.getBytes(StandardCharsets.US_ASCII);
		byte[] to = name.getBytes(StandardCharsets.US_ASCII);
		byte[] bytes = template.clone();
		for (int i = 0; i + from.length <= bytes.length; i++) {
			boolean match = true;
			for (int j = 0; j < from.length && match; j++) {
				match = bytes[i + j] == from[j];
			}
			if (match) {
				System.arraycopy(to, 0, bytes, i, to.length);
			}
		}
		return bytes;
	}

	private static final class Loader extends ClassLoader {

		Loader() {
			super(ExceptionClasses.class.getClassLoader());
		}

		Class<?> define(String name, byte[] bytes) {
			return defineClass(name, bytes, 0, bytes.length);
		}

	}

}
