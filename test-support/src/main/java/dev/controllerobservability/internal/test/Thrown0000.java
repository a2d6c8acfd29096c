package dev.controllerobservability.internal.test;

/**
 * The template {@link ExceptionClasses} copies under other names. Not thrown itself.
 */
final class Thrown0000 extends RuntimeException {

	private static final long serialVersionUID = 1L;

	Thrown0000() {
		super("generated", null, false, false);
	}

}
