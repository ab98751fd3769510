import { configure } from '@testing-library/react';

// findBy*/waitFor give up after 1 s by default: the first render of a route (module load, chart
// library) can take longer than that on a busy 2-core CI machine. A real failure still fails, later.
configure({ asyncUtilTimeout: 5000 });
