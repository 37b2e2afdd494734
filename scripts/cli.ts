// Shared by the command-line entry points: load configuration or exit 1 with one clear line.
import { ConfigError, config, type Config } from '../lib/config';

export function loadConfigOrExit(): Config {
  try {
    return config();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`atlas: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
}
