// The catalogue API on embedded engines (PGlite, in-process bus, local blob folder): see support/catalogue-suite.ts.
import { defineCatalogueSuite } from './support/catalogue-suite.ts';

defineCatalogueSuite({ name: 'embedded', env: { DATABASE_URL: '', KAFKA_BROKERS: '', S3_ENDPOINT: '' } });
