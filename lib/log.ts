// Structured JSON logs (one object per line on stdout). Child loggers carry a `component` field.
import pino from 'pino';
import { config } from './config';

export const log = pino({
  level: config().isTest ? 'silent' : config().logLevel,
  base: { service: 'atlas' },
  timestamp: pino.stdTimeFunctions.isoTime,
});

export type Logger = pino.Logger;
