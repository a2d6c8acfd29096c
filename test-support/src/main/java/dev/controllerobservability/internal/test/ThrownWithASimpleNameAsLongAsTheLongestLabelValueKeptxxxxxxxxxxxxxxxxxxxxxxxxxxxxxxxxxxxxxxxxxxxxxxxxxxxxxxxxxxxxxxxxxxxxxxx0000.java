package dev.controllerobservability.internal.test;

/**
 * The template {@link ExceptionClasses} copies under other names when asked for the
 * longest names: its simple name is as long as the longest label value the cardinality
 * limits keep by default (128 characters). Not thrown itself.
 */
final class ThrownWithASimpleNameAsLongAsTheLongestLabelValueKeptxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx0000
		extends RuntimeException {

	private static final long serialVersionUID = 1L;

	ThrownWithASimpleNameAsLongAsTheLongestLabelValueKeptxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx0000() {
		super("generated", null, false, false);
	}

}
