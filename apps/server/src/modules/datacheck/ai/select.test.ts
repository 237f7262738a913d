/**
 * What the AI review chooses to send (docs/data-check.md#ai-review): columns by heading, or by their
 * values when the heading says nothing; never private-looking columns or values; the cap shared
 * between columns; batches that keep near spellings together. Pure functions, no provider.
 */
import { describe, expect, it } from 'vitest';
import { chooseColumns, headingVerdict, isSendableValue, kindOfValues, MAX_CELL_CHARS, planBatches, shareCap, ValueCollector } from './select.ts';

describe('choosing columns', () => {
  it('reads what a heading names, in any spelling of it', () => {
    const verdicts = Object.fromEntries(
      ['Name', 'First name', 'FirstName', 'last_name', 'Customer', 'Company name', 'Employer', 'Société', 'Street address', 'Mailing address', 'Adresse', 'City', 'Country', 'País', 'Ort', '姓名', '城市', 'Column 7'].map((heading) => [heading, headingVerdict(heading)]),
    );
    expect(verdicts).toEqual({
      Name: 'person', 'First name': 'person', FirstName: 'person', last_name: 'person', Customer: 'person',
      'Company name': 'company', Employer: 'company', Société: 'company',
      'Street address': 'address', 'Mailing address': 'address', Adresse: 'address',
      City: 'place', Country: 'place', País: 'place', Ort: 'place',
      姓名: 'person', 城市: 'place',
      'Column 7': null,
    });
  });

  it('never takes a heading that sounds like a secret, an identifier, contact details or money', () => {
    for (const heading of ['Password', 'Passwort', 'API key', 'Access token', 'Secret', 'PIN', 'Customer ID', 'user_id', 'UUID', 'Username', 'Login', 'IBAN', 'Account number', 'Card number', 'SSN', 'Tax ID', 'VAT number', 'Phone', 'Contact phone', 'Mobile', 'Email', 'E-mail address', 'Website', 'Postal code', 'Reference', 'Date of birth', 'Amount', 'Salary', '密码']) {
      expect(headingVerdict(heading), heading).toBe('private');
    }
    for (const heading of ['Product name', 'File name', 'Event title', 'Notes', 'Status']) expect(headingVerdict(heading), heading).toBe('other');
  });

  it('lets the values decide when the heading says nothing', () => {
    expect(kindOfValues(['12 Baker Street', 'Hauptstraße 5', '3 rue de la Paix', '7 Elm Road'])).toBe('address');
    expect(kindOfValues(['Acme Ltd', 'Globex GmbH', 'Initech Inc.', 'Umbrella'])).toBe('company');
    expect(kindOfValues(['John Miller', 'Anna Schmidt', 'Peter Parker', 'Emma Brown'])).toBe('person');
    expect(kindOfValues(['yes', 'no', 'yes', 'maybe'])).toBeNull();
    expect(kindOfValues(['A7F3K9Q2', 'B7F3K9Q2', 'C7F3K9Q2'])).toBeNull();
    expect(kindOfValues(['12.50', '3.00', '7'])).toBeNull();
    expect(kindOfValues(['John Miller'])).toBeNull(); // too few to tell
  });

  it('chooses by heading first, keeps out private headings whatever their values, and columns of identifiers', () => {
    const sample = Array.from({ length: 10 }, (_unused, i) => ({
      Name: 'Anna Schmidt',
      Password: 'Purple Monkey Dishwasher',
      Contact: `K${1000 + i}X${i}`,
      Col: `${i + 1} Baker Street`,
      Product: 'Blue Widget',
      Empty: '',
    }));
    expect(chooseColumns(['Name', 'Password', 'Contact', 'Col', 'Product', 'Empty', 'Name'], sample)).toEqual([
      { name: 'Name', kind: 'person' },
      { name: 'Col', kind: 'address' },
    ]);
  });
});

describe('choosing values', () => {
  it('sends words only: no addresses, links, tokens, numbers or long text', () => {
    for (const value of ['John', 'Zürich', '221B Baker Street', 'Müller & Söhne GmbH', "O'Brien"]) expect(isSendableValue(value), value).toBe(true);
    for (const value of ['', '   ', 'anna@example.com', 'https://example.com/a', 'www.example.com', 'cust-000123', 'AB12CD34', '4f9a0c1e2b3d', '12.50', '2024-01-31', '+44 20 7946 0958', 'x'.repeat(MAX_CELL_CHARS + 1), 'a'.repeat(30)]) {
      expect(isSendableValue(value), value).toBe(false);
    }
  });

  it('keeps each distinct value once with every row holding it, at most `cap` per column, counting the cells left out', () => {
    const collector = new ValueCollector([{ name: 'City', kind: 'place' }], 2);
    const cities = ['Paris', 'Lyon', 'Paris', 'Nice', 'Lyon', 'Nice', 'Paris', '75001'];
    cities.forEach((city, index) => collector.add(index + 2, { City: city, Other: 'ignored' }));
    const [column] = collector.columns;
    expect([...column.values]).toEqual([['Paris', [2, 4, 8]], ['Lyon', [3, 6]]]);
    expect(column.untracked).toBe(2); // Nice twice; 75001 is not sent at all
  });
});

describe('the cap and the batches', () => {
  it('shares the cap equally, what a small column leaves going to the others', () => {
    expect(shareCap([60, 3], 12)).toEqual([9, 3]);
    expect(shareCap([10, 10, 10], 9)).toEqual([3, 3, 3]);
    expect(shareCap([1, 100, 100], 11)).toEqual([1, 5, 5]);
    expect(shareCap([5, 5], 100)).toEqual([5, 5]);
    expect(shareCap([0, 7], 3)).toEqual([0, 3]);
    expect(shareCap([4, 4, 4], 2).reduce((sum, share) => sum + share, 0)).toBe(2);
  });

  it('sorts a column so near spellings sit together, numbers the values per batch and counts what the cap left out', () => {
    const collector = new ValueCollector([{ name: 'Company', kind: 'company' }], 100);
    ['Deutsche Bank', 'Acme Ltd', 'Zeta AG', 'deutsche  bank', 'Acme Ltd', 'Deutshe Bank', 'Beta plc'].forEach((value, index) => collector.add(index + 2, { Company: value }));
    const plan = planBatches(collector.columns, 5, 3);
    expect(plan.batches.map((batch) => batch.map((cell) => [cell.id, cell.value]))).toEqual([
      [[0, 'Acme Ltd'], [1, 'Deutsche Bank'], [2, 'deutsche  bank']],
      [[0, 'Deutshe Bank'], [1, 'Zeta AG']],
    ]);
    // "Beta plc" (row 8) is past the cap of 5 values.
    expect(plan).toMatchObject({ cells: 5, leftOut: 1, capped: true });
    expect(plan.batches[0][0].rows).toEqual([3, 6]);
  });
});
