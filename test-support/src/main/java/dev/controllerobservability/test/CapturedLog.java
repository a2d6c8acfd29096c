package dev.controllerobservability.test;

import java.util.List;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * Captures what one class logs during each test, so tests can count log lines:
 * {@code @RegisterExtension final CapturedLog log = new CapturedLog(RecordingFailures.class);}
 */
public final class CapturedLog implements BeforeEachCallback, AfterEachCallback {

	private final Logger logger;

	private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

	public CapturedLog(Class<?> loggingClass) {
		this(loggingClass.getName());
	}

	private CapturedLog(String loggerName) {
		this.logger = (Logger) LoggerFactory.getLogger(loggerName);
	}

	/**
	 * Captures what every logger of the application logs.
	 * @return the extension
	 */
	public static CapturedLog everything() {
		return new CapturedLog(org.slf4j.Logger.ROOT_LOGGER_NAME);
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		this.appender.list.clear();
		this.appender.start();
		this.logger.addAppender(this.appender);
	}

	@Override
	public void afterEach(ExtensionContext context) {
		this.logger.detachAppender(this.appender);
		this.appender.stop();
	}

	/** The events logged so far in this test, oldest first. */
	public List<ILoggingEvent> events() {
		return this.appender.list;
	}

}
