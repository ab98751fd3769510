import { describeOperationsFuzz } from '../../testing/fuzz-desk';

// Every other operation of the OpenAPI document (see fuzz-desk.ts); the other part is its own file so both test workers share the fuzz.
describeOperationsFuzz(1, 2);
